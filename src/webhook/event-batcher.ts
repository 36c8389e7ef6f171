/**
 * Groups the events that arrive within one tick into one SQLite transaction: one commit, one fsync
 * (the store runs with synchronous=FULL), then every response of the group. Each event runs in its
 * own savepoint, so one failing event answers 503 without failing the others.
 */
import type { Db } from '../store/open-store.js';
import { recordEvent, type EventOutcome, type IncomingEvent, type RecordedEvent } from '../store/events.js';

/** A committed event's outcome (a duplicate carries the stored body), or why it was not stored. */
export type StoreResult = ({ ok: true } & RecordedEvent) | { ok: false; error: unknown };

export interface EventBatcher {
  /** Resolves once the event's transaction has committed (or failed); never rejects. */
  submit(event: IncomingEvent): Promise<StoreResult>;
  /** Resolves when every submitted event has its result. */
  drain(): Promise<void>;
}

interface Waiting {
  event: IncomingEvent;
  resolve: (result: StoreResult) => void;
}

export interface EventBatcherOptions {
  db: Db;
  now: () => number;
  /** Called after a commit that stored at least one new event. */
  onCommitted?: (outcomes: EventOutcome[]) => void;
}

export function createEventBatcher(options: EventBatcherOptions): EventBatcher {
  let queue: Waiting[] = [];
  let scheduled = false;
  let inFlight = Promise.resolve();
  // Built once: better-sqlite3 makes a nested call of a transaction function a SAVEPOINT.
  const recordOne = options.db.transaction((event: Waiting['event'], now: number) => recordEvent(options.db, event, now));

  const runBatch = (): void => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    const results = new Map<Waiting, StoreResult>();
    try {
      const now = options.now();
      options.db.transaction(() => {
        for (const item of batch) {
          try {
            // A nested better-sqlite3 transaction is a SAVEPOINT: a throw rolls back this event only.
            results.set(item, { ok: true, ...recordOne(item.event, now) });
          } catch (error) {
            results.set(item, { ok: false, error });
          }
        }
      })();
    } catch (error) {
      // The commit itself failed: nothing of the batch is durable.
      for (const item of batch) item.resolve({ ok: false, error });
      return;
    }
    const outcomes: EventOutcome[] = [];
    for (const item of batch) {
      const result = results.get(item)!;
      if (result.ok) outcomes.push(result.outcome);
      item.resolve(result);
    }
    if (outcomes.some((o) => o !== 'duplicate')) {
      try {
        options.onCommitted?.(outcomes);
      } catch {
        // a wake-up callback must not turn a committed event into a failure
      }
    }
  };

  return {
    submit(event) {
      return new Promise<StoreResult>((resolve) => {
        queue.push({ event, resolve });
        if (!scheduled) {
          scheduled = true;
          inFlight = new Promise<void>((done) =>
            setImmediate(() => {
              runBatch();
              done();
            }),
          );
        }
      });
    },
    drain() {
      return inFlight;
    },
  };
}
