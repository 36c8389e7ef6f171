/**
 * The listener's requests in flight, kept so that a stop can wait for them: each handler's task
 * (its store and answer), and each response not yet fully sent (a pipelined one may wait behind
 * another on its socket). A handler that fails (a bug of ours) is logged and answered 500.
 *
 * Once stopping, new answers close their connection, and a keep-alive socket that falls idle after
 * an answer is closed at once, so neither holds the stop up. A request already queued on the
 * socket (pipelined) is still answered: 503 WEBHOOK_STOPPING, by the handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConnectorError, describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { sendJson } from './answer-webhook.js';

export interface OpenRequestsDeps {
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  log: Logger;
  count: (outcome: string) => void;
  stopping: () => boolean;
  /** Close the server's idle keep-alive connections (once stopping and no answer is left to send). */
  closeIdleConnections: () => void;
}

export interface OpenRequests {
  /** The server's `request` listener. */
  onRequest(req: IncomingMessage, res: ServerResponse): void;
  /** Resolves once every handler started so far has settled. */
  settled(): Promise<void>;
  /** Responses not yet fully sent. */
  readonly unfinished: number;
}

export function trackOpenRequests(deps: OpenRequestsDeps): OpenRequests {
  const { handle, log, count, stopping } = deps;
  const inFlight = new Set<Promise<void>>();
  const unfinished = new Set<ServerResponse>();
  // One listener for every response (it is its `this`), not a closure per request.
  function responseClosed(this: ServerResponse): void {
    unfinished.delete(this);
    if (stopping() && unfinished.size === 0) setImmediate(deps.closeIdleConnections);
  }
  return {
    onRequest(req, res) {
      if (stopping()) res.setHeader('Connection', 'close');
      unfinished.add(res);
      res.on('close', responseClosed);
      const done = (): void => void inFlight.delete(task);
      const task: Promise<void> = handle(req, res).then(done, (error: unknown) => {
        done();
        const failure = new ConnectorError('WEBHOOK_INTERNAL_ERROR', `The webhook listener failed: ${describeError(error)}`, { cause: error });
        log.error({ code: failure.code, err: failure }, failure.message);
        if (res.headersSent) return void res.destroy();
        count(failure.code);
        sendJson(res, 500, { received: false, code: failure.code, message: 'internal error; send again' });
      });
      inFlight.add(task);
    },
    async settled() {
      await Promise.allSettled([...inFlight]);
    },
    get unfinished() {
      return unfinished.size;
    },
  };
}
