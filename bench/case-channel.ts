/**
 * The protocol between the bench runner and a case running in its own child process.
 *
 * A case is `(args, channel) => Promise<result>`. A server-like case (sandbox, webhook listener)
 * calls `channel.ready(info)` once it listens, then `await channel.stopRequested()`; the runner
 * sends `stop` when the load is over. A case whose own work decides when the load is over (the
 * intake, done when its last file is archived) says so with `done()`. The worker answers with the
 * result and the child's peak RSS (`process.resourceUsage().maxRSS`), then exits.
 */
export interface CaseChannel {
  ready(info: unknown): void;
  /** The case's timed work is over: the runner's load on it can stop. */
  done(): void;
  stopRequested(): Promise<void>;
}

export type CaseFn = (args: never, channel: CaseChannel) => Promise<unknown>;

export type ToChild = { type: 'stop' };

export type FromChild =
  { type: 'ready'; info: unknown } | { type: 'done' } | { type: 'result'; data: unknown; maxRssKb: number } | { type: 'error'; message: string };
