/**
 * `/healthz`: the process is up and answering. The admin listener serves it with `/readyz`; the
 * webhook listener serves it too, for a reverse proxy in front that checks the port it forwards
 * to. Both answer through this one function, so they say the same thing.
 */
import type { ServerResponse } from 'node:http';

export const HEALTHZ_PATH = '/healthz';

/** True for `GET /healthz` or `HEAD /healthz` (any query string). */
export function isHealthProbe(target: string | undefined, method: string | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && (target === HEALTHZ_PATH || target?.startsWith(`${HEALTHZ_PATH}?`) === true);
}

export function sendHealthz(res: ServerResponse): void {
  const body = JSON.stringify({ status: 'ok' });
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
