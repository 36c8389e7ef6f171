/** Writing a decided `ApiResponse` to the socket. */
import type { ServerResponse } from 'node:http';
import type { ApiResponse } from './types.js';

export function writeResponse(res: ServerResponse, response: ApiResponse, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(response.body, 'utf8');
  res.writeHead(response.status, { ...response.headers, ...extraHeaders, 'content-length': String(body.length) });
  res.end(body);
}
