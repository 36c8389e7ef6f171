/** The sandbox's request bodies: read as text with a size limit, and the content-type check. */
import type { IncomingMessage } from 'node:http';
import { readBody, type BodyResult } from '../shared/read-body.js';

/** `readBody`'s result with the bytes decoded: the same `ok` and failure `reason`s. */
export type TextBodyResult = { ok: true; text: string } | Exclude<BodyResult, { ok: true }>;

/**
 * Read the whole body as UTF-8, up to `maxBytes` (the daemon's one body reader). Past it (by the
 * declared Content-Length up front, or by counting) it stops at once with `tooLarge` and leaves
 * the rest of the body unread: `answerTooLarge` answers, then drains it.
 */
export async function readTextBody(req: IncomingMessage, maxBytes: number): Promise<TextBodyResult> {
  const read = await readBody(req, maxBytes, req.headers['content-length']);
  return read.ok ? { ok: true, text: read.body.toString('utf8') } : read;
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
