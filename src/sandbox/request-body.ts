/** Reading a request body with a size limit, and the content-type check. */
import type { IncomingMessage } from 'node:http';
import { readBody as readLimited } from '../shared/read-body.js';

export type BodyResult = { kind: 'ok'; text: string } | { kind: 'too-large' } | { kind: 'aborted' };

/**
 * Read the whole body as UTF-8, up to `maxBytes` (the daemon's one body reader). Past it (by the
 * declared Content-Length up front, or by counting) it stops at once with `too-large` and leaves
 * the rest of the body unread: `answerTooLarge` answers, then drains it.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const read = await readLimited(req, maxBytes, req.headers['content-length']);
  if (read.ok) return { kind: 'ok', text: read.body.toString('utf8') };
  return read.reason === 'tooLarge' ? { kind: 'too-large' } : { kind: 'aborted' };
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
