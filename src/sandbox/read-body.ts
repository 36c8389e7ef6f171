/** Reading a request body with a size limit, and the content-type check. */
import type { IncomingMessage } from 'node:http';

export type BodyResult = { kind: 'ok'; text: string } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Read the whole body as UTF-8. Past `maxBytes` the rest is drained and discarded (so the client
 * can finish writing and read our 413 instead of getting a reset).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve) => {
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      resolve({ kind: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? { kind: 'too-large' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve({ kind: 'aborted' }));
    req.on('close', () => {
      if (!req.complete) resolve({ kind: 'aborted' });
    });
  });
}

/** `application/json`, with an optional charset that must be UTF-8. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [mediaType, ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== 'application/json') return false;
  for (const param of params) {
    const [name, value] = param.split('=').map((s) => s.trim());
    if (name === 'charset' && value?.replace(/"/g, '') !== 'utf-8' && value?.replace(/"/g, '') !== 'utf8') return false;
  }
  return true;
}
