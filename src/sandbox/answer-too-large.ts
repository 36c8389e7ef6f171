/**
 * The sandbox's 413: answered at once with `Connection: close`, and the connection closed only
 * after the rest of the body has been drained (within bounds), so that a client still uploading
 * reads the 413 instead of a reset (`src/shared/end-after-drain.ts` says why).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DRAIN_LIMITS, endAfterDrain, type DrainLimits } from '../shared/end-after-drain.js';
import type { ApiResponse } from './types.js';

export function answerTooLarge(
  req: IncomingMessage,
  res: ServerResponse,
  response: ApiResponse,
  extraHeaders: Record<string, string> = {},
  limits: DrainLimits = DRAIN_LIMITS,
): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(response.body, 'utf8');
  res.writeHead(response.status, { ...response.headers, ...extraHeaders, connection: 'close', 'content-length': String(body.length) });
  res.write(body);
  endAfterDrain(req, res, limits);
}
