/**
 * Records the outcomes of a flow's delivery attempts in groups, one transaction each: the
 * counterpart of `webhook/event-batcher.ts` on the sending side. Each commit writes its pages to
 * the WAL, so an outcome recorded on its own costs about as much again as its rows
 * (docs/performance.md).
 *
 * The group of a turn (the outcomes that came in before `setImmediate` runs) is recorded at its
 * end when one of them must be recorded before its sender goes on (`addAndWait`: an answer that
 * may move the gate), or when `capacity` wait; otherwise the group waits up to `windowMs` for the
 * outcomes of the next turns to share its commit.
 *
 * Nothing here needs to be durable at once: until its outcome is recorded a row stays in flight in
 * the store, under its lease, and a crash meanwhile only sends it again under the same
 * Idempotency-Key.
 */
import { ConnectorError } from '../errors.js';
import type { Logger } from '../log.js';
import type { AttemptToRecord, RecordedAttempt } from '../store/outbox.js';

/** An attempt's outcome, with the logger of its row. */
export interface BatchedOutcome extends AttemptToRecord {
  /** Where a failure to record or report this outcome is logged. */
  log: Logger;
}

export interface OutcomeBatcherOptions<T extends BatchedOutcome> {
  /**
   * Write a group in one transaction, one result per outcome in order (`store/outbox.ts`
   * `recordAttempts`, which records each on its own when one of them fails). Throws when the
   * transaction itself fails: then no outcome of the group is recorded.
   */
  record: (outcomes: readonly T[]) => readonly RecordedAttempt[];
  /**
   * Hears each outcome of a group once the group's transaction is over, in the order they were
   * added: `{ written }`, or `{ error }` when it could not be recorded (logged already).
   */
  onRecorded: (outcome: T, result: RecordedAttempt) => void;
  /** A group this large is recorded at the end of its turn (`flow-sender.ts`: the rows of one claim, `claimGroupFor`). */
  capacity: number;
  /** How long a group waits for others to share its commit. */
  windowMs: number;
}

export interface OutcomeBatcher<T extends BatchedOutcome> {
  /** Queue an outcome; resolves at the end of its turn. It is recorded with its group, within `windowMs`. */
  add(outcome: T): Promise<void>;
  /** Queue an outcome whose group is recorded at the end of its turn; resolves once it is recorded. */
  addAndWait(outcome: T): Promise<void>;
  /** The outcomes not yet recorded, oldest first. */
  queued(): readonly T[];
  /** True while an outcome added with `addAndWait` is not yet recorded. */
  isAwaitingRecord(): boolean;
  /** Record every outcome queued so far now. */
  flush(): void;
  /** Record what waits; from now on each group is recorded at the end of its turn, with no window. Idempotent. */
  stop(): void;
}

export function createOutcomeBatcher<T extends BatchedOutcome>(options: OutcomeBatcherOptions<T>): OutcomeBatcher<T> {
  let queue: T[] = [];
  /** Per queued outcome, what resolves its `addAndWait` caller once it is recorded (nothing for `add`). */
  let settlers: (() => void)[] = [];
  /** Queued outcomes added with `addAndWait`. */
  let waiting = 0;
  /** The `add` callers of this turn, resolved at its end. */
  let releasing: (() => void)[] = [];
  /** `endOfTurn` is scheduled. */
  let turnEnding = false;
  let windowTimer: NodeJS.Timeout | null = null;
  let stopped = false;

  function endTurnSoon(): void {
    if (turnEnding) return;
    turnEnding = true;
    setImmediate(endOfTurn);
  }

  /**
   * Once every outcome of this turn is queued: the group is recorded now if a caller waits for it
   * (an answer that may move the gate, heard with every outcome before it, in order, before any
   * slot of this turn frees) or it fills `capacity`, otherwise when the window closes. Then the
   * `add` callers go on.
   */
  function endOfTurn(): void {
    turnEnding = false;
    if (stopped || waiting > 0 || queue.length >= options.capacity) flush();
    else if (queue.length > 0) windowTimer ??= setTimeout(flush, options.windowMs);
    if (releasing.length === 0) return;
    const ready = releasing;
    releasing = [];
    for (const release of ready) release();
  }

  function flush(): void {
    if (windowTimer) clearTimeout(windowTimer);
    windowTimer = null;
    if (queue.length === 0) return;
    const group = queue;
    const settle = settlers;
    queue = [];
    settlers = [];
    waiting = 0;
    const results = recordGroup(group);
    for (const [index, outcome] of group.entries()) {
      hear(outcome, results[index] ?? NOT_RECORDED);
      settle[index]!();
    }
  }

  function recordGroup(group: readonly T[]): readonly RecordedAttempt[] {
    try {
      return options.record(group);
    } catch (error) {
      // The store failed: the rows stay in flight and their lease hands them back later; the same
      // Idempotency-Key makes the repeat safe.
      const failed = { error };
      return group.map(() => failed);
    }
  }

  function hear(outcome: T, result: RecordedAttempt): void {
    try {
      if ('error' in result) outcome.log.error({ err: result.error }, 'Could not record the outcome of a delivery attempt');
      options.onRecorded(outcome, result);
    } catch (error) {
      // One outcome's report must not keep the others of its group unheard, nor their callers waiting.
      outcome.log.error({ err: error }, 'Could not report the outcome of a delivery attempt');
    }
  }

  return {
    add(outcome) {
      return new Promise<void>((release) => {
        queue.push(outcome);
        settlers.push(noop);
        releasing.push(release);
        endTurnSoon();
      });
    },
    addAndWait(outcome) {
      return new Promise<void>((resolve) => {
        queue.push(outcome);
        settlers.push(resolve);
        waiting += 1;
        endTurnSoon();
      });
    },
    queued: () => queue,
    isAwaitingRecord: () => waiting > 0,
    flush,
    stop() {
      stopped = true;
      flush();
    },
  };
}

function noop(): void {}

/** The result of an outcome `record` left without one: not recorded. */
const NOT_RECORDED: RecordedAttempt = { error: new ConnectorError('STORE_FAILED', 'The store returned no result for this attempt') };
