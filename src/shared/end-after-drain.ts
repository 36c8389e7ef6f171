/**
 * Ending a response to a request whose body is still arriving, without losing the response to a
 * reset.
 *
 * Node's HTTP server destroys a `Connection: close` socket as soon as the response has ended, and
 * a socket closed with request bytes still unread makes the kernel send a reset, which can reach
 * the client before it has read the answer: it then sees EPIPE or ECONNRESET (`fetch failed`)
 * instead of, say, a 413. So, as robust servers do (Apache's lingering close, nginx's
 * `lingering_time`): the caller writes the whole answer at once, so that a client watching for an
 * early answer can stop sending, and `endAfterDrain` ends the response (and so closes the socket)
 * only once the rest of the body has been read and discarded, up to a bound in bytes and in time,
 * past which it closes anyway.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface DrainLimits {
  /** Bytes read and discarded after the answer, at most. Default 64 MiB. */
  bytes: number;
  /** How long the rest of the body may take to arrive. Default 5 s. */
  ms: number;
}

export const DRAIN_LIMITS: DrainLimits = { bytes: 64 * 1024 * 1024, ms: 5_000 };

/** End `res` (already written in full) once `req`'s body has been drained, or at a limit. */
export function endAfterDrain(req: IncomingMessage, res: ServerResponse, limits: DrainLimits = DRAIN_LIMITS): void {
  if (req.complete) {
    res.end();
    return;
  }
  let drained = 0;
  const close = (): void => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', close);
    req.off('close', close);
    req.off('error', close);
    res.end();
  };
  const onData = (chunk: Buffer): void => {
    drained += chunk.length;
    if (drained > limits.bytes) close();
  };
  const timer = setTimeout(close, limits.ms);
  timer.unref();
  req.on('data', onData);
  req.once('end', close);
  req.once('close', close);
  req.once('error', close);
  req.resume();
}
