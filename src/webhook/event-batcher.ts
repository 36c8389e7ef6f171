/**
 * Groups the events that arrive until the previous group's fsync is over (at least one tick) into
 * one store transaction, then waits for the store's group commit before any event of the group
 * gets its answer: a 200 means the event survives a power cut. The daemon gives it the store's
 * `durableNow()`: on a quick disk the group's fsync runs at once, on the event loop; on a slow one
 * it is one fsync off the event loop, shared with whatever else committed meanwhile. When one
 * event of a group fails, the store records the others each in its own savepoint, so that event
 * answers 503 without failing them.
 *
 * Each stored event is logged once it is durable, in a line a second (`event-log.ts`).
 */
import type { Logger } from '../log.js';
import { ORDER_STATUS_CHANGED, type WebhookEvent } from '../platform/contract.js';
import { recordEvents, type EventOutcome, type EventResult } from '../store/events.js';
import type { Db } from '../store/open-store.js';
import { alreadyDurable, type WaitDurable } from '../shared/types.js';
import { createEventLog } from './event-log.js';
import { eventToStore, supersedes } from './status-change.js';

/** A committed event's outcome (a duplicate carries the stored body), or why it was not stored. */
export type StoreResult = EventResult;

export interface EventBatcher {
  /** Resolves once the event's transaction has committed (or failed); never rejects. */
  submit(event: WebhookEvent, body: string): Promise<StoreResult>;
  /** Resolves when every submitted event has its result (and is logged). */
  drain(): Promise<void>;
  /** Log the events stored so far now, not at the end of their second (a stop is beginning). */
  flushLog(): void;
}

interface Waiting {
  event: WebhookEvent;
  body: string;
  resolve: (result: StoreResult) => void;
}

export interface EventBatcherOptions {
  db: Db;
  now: () => number;
  /** Called after a commit that stored at least one new event (once it is durable). */
  onCommitted?: (outcomes: EventOutcome[]) => void;
  /** The store's group commit. Default: commits are durable already (a FULL store). */
  durable?: WaitDurable;
  /** Where the stored events are logged (`info`, a line a second: `event-log.ts`). Default: not logged. */
  logger?: Logger;
}

export function createEventBatcher(options: EventBatcherOptions): EventBatcher {
  let queue: Waiting[] = [];
  let scheduled = false;
  let inFlight = Promise.resolve();
  /** The previous batch's wait for its fsync; settles, never rejects. */
  let previousDurable: Promise<void> = Promise.resolve();
  const durable = options.durable ?? alreadyDurable;
  const log = createEventLog(options.logger);

  const runBatch = async (): Promise<void> => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    let results: StoreResult[];
    try {
      const now = options.now();
      results = recordEvents(
        options.db,
        batch.map((item) => eventToStore(item.event, item.body, now)),
        now,
        supersedes,
      );
      const synced = durable();
      previousDurable = synced.then(noop, noop);
      await synced;
    } catch (error) {
      // The commit, or the fsync that makes it durable, failed: the batch is not known to be on disk.
      for (const item of batch) item.resolve({ ok: false, error });
      return;
    }
    const outcomes: EventOutcome[] = [];
    batch.forEach((item, index) => {
      const result = results[index]!;
      if (result.ok) {
        outcomes.push(result.outcome);
        const { eventId, eventType, orderId, status } = item.event;
        log.add(result.outcome, () => (eventType === ORDER_STATUS_CHANGED ? `${eventId} ${orderId} ${status}` : `${eventId} ${eventType}`));
      }
      item.resolve(result);
    });
    if (outcomes.some((o) => o !== 'duplicate')) {
      try {
        options.onCommitted?.(outcomes);
      } catch {
        // a wake-up callback must not turn a committed event into a failure
      }
    }
  };

  return {
    submit(event, body) {
      return new Promise<StoreResult>((resolve) => {
        queue.push({ event, body, resolve });
        if (!scheduled) {
          scheduled = true;
          // A batch commits once the previous batch's fsync is over (and no earlier than the next
          // tick): its events would wait for the fsync after that one anyway (`durable()` shares
          // only an fsync that starts after the commit), so nothing answers later, but everything
          // that arrives meanwhile shares one commit, and no commit writes into the WAL while it
          // is being fsynced. `drain()` waits for the last batch.
          const previous = inFlight;
          const batch = new Promise<void>((resolve) => setImmediate(resolve)).then(() => previousDurable).then(runBatch);
          inFlight = Promise.all([previous, batch]).then(() => undefined);
        }
      });
    },
    async drain() {
      await inFlight;
      log.flush();
    },
    flushLog() {
      log.flush();
    },
  };
}

function noop(): void {}
