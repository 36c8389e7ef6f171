/**
 * A stream of signed status events that goes on until stopped, each event new (its own eventId and
 * order), as a platform keeps sending while the daemon has trouble. Every answer is kept by the
 * number the send was started under, so a test can ask what was answered after a moment it marked.
 */
import { Pool } from 'undici';
import { signed, statusEvent } from './webhook-sender.js';

export interface StreamAnswer {
  /** Sends are numbered from 1 in the order they start. */
  seq: number;
  eventId: string;
  status: number | 'error';
}

export interface EventStream {
  /** Sends started so far: the mark to pass to `answeredAfter`. */
  readonly started: number;
  /** Every answer so far. */
  readonly answers: readonly StreamAnswer[];
  /** Answers to the sends started after `mark`. */
  answeredAfter(mark: number): StreamAnswer[];
  /** Stop sending and wait for the answers in flight. */
  stop(): Promise<void>;
}

export interface EventStreamOptions {
  /** The listener's `/webhooks/service` URL. */
  url: string;
  secret: string;
  /** Send `n` (from 1) is event `EVT-<first + n>` of order `first + n` (eventIds must look like `EVT-000123`). */
  first: number;
  /** Sends in flight at once. Default 8. */
  concurrency?: number;
}

export function startEventStream(options: EventStreamOptions): EventStream {
  const target = new URL(options.url);
  const concurrency = options.concurrency ?? 8;
  const pool = new Pool(target.origin, { connections: concurrency, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const answers: StreamAnswer[] = [];
  let started = 0;
  let stopping = false;
  const sender = async (): Promise<void> => {
    while (!stopping) {
      started += 1;
      const seq = started;
      const eventId = `EVT-${options.first + seq}`;
      const body = statusEvent(options.first + seq, eventId);
      let status: number | 'error';
      try {
        const res = await pool.request({
          method: 'POST',
          path: target.pathname,
          headers: { 'content-type': 'application/json; charset=utf-8', 'x-service-signature': signed(options.secret, body) },
          body,
        });
        await res.body.dump();
        status = res.statusCode;
      } catch {
        status = 'error';
        // A daemon that is down refuses at once: do not spin.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      answers.push({ seq, eventId, status });
    }
  };
  const running = Promise.all(Array.from({ length: concurrency }, sender));
  return {
    get started() {
      return started;
    },
    answers,
    answeredAfter: (mark) => answers.filter((a) => a.seq > mark),
    async stop() {
      stopping = true;
      await running;
      await pool.close();
    },
  };
}

/** Answers counted by status (`{ "200": 120, "503": 14 }`), for failure messages. */
export function statusCounts(answers: readonly StreamAnswer[]): string {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(String(a.status), (counts.get(String(a.status)) ?? 0) + 1);
  return JSON.stringify(Object.fromEntries(counts));
}

/** The eventIds answered 2xx. */
export function acceptedIds(answers: readonly StreamAnswer[]): string[] {
  return answers.filter((a) => typeof a.status === 'number' && a.status >= 200 && a.status < 300).map((a) => a.eventId);
}
