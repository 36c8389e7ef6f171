/** The node:http server: records API calls and routes each request to the API or the admin API. */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { ADMIN_PREFIX, handleAdminCall } from './admin-api.js';
import { maskTokenInPath, matchApiRoute } from './api-routes.js';
import type { SandboxContext } from './context.js';
import { handleApiCall } from './handle-api-call.js';
import { notFoundProblem, problemResponse, SANDBOX_PROBLEM_TYPES } from './problem.js';
import type { RecordedCall } from './types.js';
import { writeResponse } from './write-response.js';

export function createSandboxServer(ctx: SandboxContext): http.Server {
  return http.createServer((req, res) => {
    routeRequest(ctx, req, res).catch((error: unknown) => {
      ctx.logger.error({ err: error }, 'sandbox request crashed');
      writeResponse(res, problemResponse({ type: SANDBOX_PROBLEM_TYPES.internal, title: 'Internal error', status: 500, detail: 'The sandbox crashed.' }));
    });
  });
}

async function routeRequest(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://sandbox').pathname;
  if (pathname.startsWith(ADMIN_PREFIX)) return handleAdminCall(ctx, req, res, pathname);

  const call: RecordedCall = {
    seq: ctx.calls.length + 1,
    receivedAt: ctx.now().toISOString(),
    method: req.method ?? '',
    path: maskTokenInPath(pathname),
    headers: { ...req.headers },
    body: undefined,
    status: null,
    replayed: false,
  };
  ctx.calls.push(call);

  const route = matchApiRoute(pathname);
  if (!route) {
    req.resume();
    call.status = 404;
    writeResponse(res, notFoundProblem(`No endpoint at ${call.path}.`));
    return;
  }
  await handleApiCall(ctx, req, res, route, call);
}
