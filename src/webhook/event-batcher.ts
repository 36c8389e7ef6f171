/**
 * Groups the events that arrive until the previous group's fsync is over (at least one tick) into
 * one store transaction, then waits for the store's group commit (`durable()`: one fsync off the
 * event loop, shared with whatever else committed meanwhile) before any event of the group gets its
 * answer: a 200 means the event survives a power cut. When one event of a group fails, the store
 * records the others each in its own savepoint, so that event answers 503 without failing them.
 *
 * The group is logged as one line, once durable, listing each event with its outcome: each state
 * change is logged once, at a fraction of the cost of a line (and a child logger) per event, which
 * was a tenth of the listener's work per event under load.
 */
import type { Logger } from '../log.js';
import type { WebhookEvent } from '../platform/contract.js';
import { recordEvents, type EventOutcome, type EventResult } from '../store/events.js';
import type { Db } from '../store/open-store.js';
import { alreadyDurable, type WaitDurable } from '../shared/types.js';
import { eventToStore, supersedes } from './status-change.js';

/** A committed event's outcome (a duplicate carries the stored body), or why it was not stored. */
export type StoreResult = EventResult;

export interface EventBatcher {
  /** Resolves once the event's transaction has committed (or failed); never rejects. */
  submit(event: WebhookEvent, body: string): Promise<StoreResult>;
  /** Resolves when every submitted event has its result. */
  drain(): Promise<void>;
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
  /** Where each durable group is logged (`info`, one line). Default: not logged. */
  logger?: Logger;
}

export function createEventBatcher(options: EventBatcherOptions): EventBatcher {
  let queue: Waiting[] = [];
  let scheduled = false;
  let inFlight = Promise.resolve();
  /** The previous batch's wait for its fsync; settles, never rejects. */
  let previousDurable: Promise<void> = Promise.resolve();
  const durable = options.durable ?? alreadyDurable;

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
    const stored: StoredEventLine[] = [];
    batch.forEach((item, index) => {
      const result = results[index]!;
      if (result.ok) {
        outcomes.push(result.outcome);
        const { eventId, eventType, orderId, status } = item.event;
        stored.push({ eventId, eventType, orderId, status, outcome: result.outcome });
      }
      item.resolve(result);
    });
    if (stored.length > 0) options.logger?.info({ events: stored }, `${describeOutcomes(outcomes)} webhook event(s) stored`);
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
    drain() {
      return inFlight;
    },
  };
}

function noop(): void {}

/** What the group's log line says of each stored event. */
interface StoredEventLine {
  eventId: string;
  eventType: string;
  orderId: string | undefined;
  status: string | undefined;
  outcome: EventOutcome;
}

/** `3 applied, 1 duplicate` */
function describeOutcomes(outcomes: readonly EventOutcome[]): string {
  const counts = new Map<EventOutcome, number>();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return [...counts].map(([outcome, n]) => `${n} ${outcome}`).join(', ');
}
