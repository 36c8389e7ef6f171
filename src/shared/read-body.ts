/**
 * Reading a body (a webhook request, the platform's answer) into one Buffer, up to a byte limit:
 * neither an unauthenticated client nor a platform (or anything answering in its place) can make
 * the daemon hold more than `maxBytes` of it.
 */
import type { Readable } from 'node:stream';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'tooLarge' } | { ok: false; reason: 'aborted'; error?: unknown };

/**
 * Collect the body of `stream`. Past `maxBytes` (by the declared Content-Length up front, or by
 * counting) it stops collecting and reports `tooLarge` without waiting for the rest (the caller
 * answers or destroys the stream). A stream that errors, or closes before its end, is `aborted`.
 */
export function readBody(stream: Readable, maxBytes: number, contentLength?: string | string[]): Promise<BodyResult> {
  if (declaresMoreThan(contentLength, maxBytes)) return Promise.resolve({ ok: false, reason: 'tooLarge' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
      // At its end the stream is done with: its listeners go with it (they see `settled`), and one
      // of them stays for an 'error' that comes after. Otherwise stop collecting now.
      if (result.ok) return;
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        finish({ ok: false, reason: 'tooLarge' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    const onError = (error: unknown): void => finish({ ok: false, reason: 'aborted', error });
    const onClose = (): void => {
      if (!stream.readableEnded) finish({ ok: false, reason: 'aborted' });
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

/** Whether a `content-length` header (the first, when repeated) announces more than `maxBytes`: such a body is refused unread. */
export function declaresMoreThan(contentLength: string | string[] | undefined, maxBytes: number): boolean {
  const declared = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  return Number.isFinite(declared) && declared > maxBytes;
}
