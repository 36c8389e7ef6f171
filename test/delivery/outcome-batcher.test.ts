/**
 * The group commit of delivery outcomes (`outcome-batcher.ts`), on its own: a recording function
 * that notes each group it is given (and, last, the store's own `recordAttempts` on a real store),
 * fake timers for the turns and the window.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOutcomeBatcher, type BatchedOutcome, type OutcomeBatcherOptions } from '../../src/delivery/outcome-batcher.js';
import { createLogger } from '../../src/log.js';
import { claimDueSubmissions, recordAttempts, type RecordedAttempt } from '../../src/store/outbox.js';
import { getSubmission } from '../../src/store/submissions.js';
import { validRequest } from '../helpers/fixtures.js';
import { addRequestRow, withStore } from '../helpers/store.js';
import { withTempDir } from '../helpers/temp-dir.js';

const T = 1_000_000;
const WINDOW_MS = 50;

/** A logger whose lines the test reads. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { lines, logger };
}

const { lines, logger } = capture();

/** The accepted outcome of an attempt at row `id`. */
function outcome(id: number, ack?: BatchedOutcome['ack']): BatchedOutcome {
  return {
    submissionId: id,
    attempt: { requestId: `r${id}`, startedAt: T, finishedAt: T, httpStatus: 201, outcome: 'accepted', error: null },
    update: {
      state: 'accepted',
      attempts: 1,
      nextAttemptAt: T,
      firstAttemptAt: T,
      lastAttemptAt: T,
      lastStatus: 201,
      lastErrorCode: null,
      lastError: null,
      result: '{}',
      platformId: `PRC-${id}`,
      finishedAt: T,
      now: T,
    },
    ack,
    log: logger.child({ submissionId: id }),
  };
}

/** A batcher whose `record` writes every outcome and notes each group's ids; `events` lists what happened, in order. */
function batcherUnderTest(over: Partial<OutcomeBatcherOptions<BatchedOutcome>> = {}) {
  const groups: number[][] = [];
  const events: string[] = [];
  const heard: [number, RecordedAttempt][] = [];
  const batcher = createOutcomeBatcher<BatchedOutcome>({
    record: (group) => {
      groups.push(group.map((item) => item.submissionId));
      events.push(`record ${group.map((item) => item.submissionId).join(',')}`);
      return group.map(() => ({ written: true }));
    },
    onRecorded: (item, result) => {
      heard.push([item.submissionId, result]);
      events.push(`heard ${item.submissionId}`);
    },
    capacity: 4,
    windowMs: WINDOW_MS,
    ...over,
  });
  const add = (id: number) => void batcher.add(outcome(id)).then(() => events.push(`released ${id}`));
  const addAndWait = (id: number) => void batcher.addAndWait(outcome(id)).then(() => events.push(`resolved ${id}`));
  return { batcher, groups, events, heard, add, addAndWait };
}

/** Let the current turn end (its `setImmediate`) and the promises it settled run. */
const endTurn = () => vi.advanceTimersByTimeAsync(0);

describe('createOutcomeBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    lines.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('frees the callers of a turn at its end and records their outcomes together when the window closes', async () => {
    const { batcher, groups, events, heard, add } = batcherUnderTest();
    add(1);
    add(2);
    expect(batcher.queued().map((item) => item.submissionId)).toEqual([1, 2]);
    await endTurn();
    expect(events).toEqual(['released 1', 'released 2']);
    await vi.advanceTimersByTimeAsync(WINDOW_MS - 1);
    expect(groups).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(groups).toEqual([[1, 2]]);
    expect(heard).toEqual([
      [1, { written: true }],
      [2, { written: true }],
    ]);
    expect(batcher.queued()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets the outcomes of later turns join a waiting group, without moving its window', async () => {
    const { groups, add } = batcherUnderTest();
    add(1);
    await endTurn();
    await vi.advanceTimersByTimeAsync(WINDOW_MS / 2);
    add(2);
    await endTurn();
    await vi.advanceTimersByTimeAsync(WINDOW_MS / 2);
    expect(groups).toEqual([[1, 2]]);
  });

  it('records a group that fills `capacity` at the end of its turn, before its callers go on', async () => {
    const { groups, events, add } = batcherUnderTest({ capacity: 3 });
    add(1);
    add(2);
    await endTurn();
    add(3);
    expect(groups).toEqual([]);
    await endTurn();
    expect(groups).toEqual([[1, 2, 3]]);
    expect(events.slice(2)).toEqual(['record 1,2,3', 'heard 1', 'heard 2', 'heard 3', 'released 3']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('records the group of an outcome added with addAndWait at the end of its turn, and resolves it only once it is heard', async () => {
    const { batcher, events, add, addAndWait } = batcherUnderTest();
    add(1);
    addAndWait(2);
    expect(batcher.isAwaitingRecord()).toBe(true);
    await endTurn();
    expect(events).toEqual(['record 1,2', 'heard 1', 'heard 2', 'resolved 2', 'released 1']);
    expect(batcher.isAwaitingRecord()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('when the commit fails, every outcome of the group hears the error, logged on its own logger, and every caller goes on', async () => {
    const failure = new Error('disk I/O error');
    const { heard, events, add, addAndWait } = batcherUnderTest({
      record: () => {
        throw failure;
      },
    });
    add(1);
    addAndWait(2);
    await endTurn();
    expect(heard).toEqual([
      [1, { error: failure }],
      [2, { error: failure }],
    ]);
    expect(lines.map((line) => [line.submissionId, line.msg, (line.err as { message: string }).message])).toEqual([
      [1, 'Could not record the outcome of a delivery attempt', 'disk I/O error'],
      [2, 'Could not record the outcome of a delivery attempt', 'disk I/O error'],
    ]);
    expect(events).toEqual(expect.arrayContaining(['resolved 2', 'released 1']));
  });

  it('passes each outcome its own result, and logs only the one that could not be recorded', async () => {
    const refused = new Error('CHECK constraint failed');
    const { heard, add } = batcherUnderTest({ record: () => [{ written: true }, { error: refused }, { written: false }] });
    add(1);
    add(2);
    add(3);
    await endTurn();
    await vi.advanceTimersByTimeAsync(WINDOW_MS);
    expect(heard).toEqual([
      [1, { written: true }],
      [2, { error: refused }],
      [3, { written: false }],
    ]);
    expect(lines.map((line) => [line.submissionId, line.msg])).toEqual([[2, 'Could not record the outcome of a delivery attempt']]);
  });

  it('an outcome whose report throws leaves the rest of its group heard and its caller resolved', async () => {
    const heard: number[] = [];
    const { events, addAndWait } = batcherUnderTest({
      onRecorded: (item) => {
        if (item.submissionId === 1) throw new Error('metrics registry closed');
        heard.push(item.submissionId);
      },
    });
    addAndWait(1);
    addAndWait(2);
    await endTurn();
    expect(heard).toEqual([2]);
    expect(events).toEqual(['record 1,2', 'resolved 1', 'resolved 2']);
    expect(lines.map((line) => [line.submissionId, line.msg])).toEqual([[1, 'Could not report the outcome of a delivery attempt']]);
  });

  it('flush records what waits for the window now and leaves no timer behind', async () => {
    const { batcher, groups, add } = batcherUnderTest();
    add(1);
    await endTurn();
    expect(vi.getTimerCount()).toBe(1);
    batcher.flush();
    expect(groups).toEqual([[1]]);
    expect(vi.getTimerCount()).toBe(0);
    batcher.flush();
    expect(groups).toEqual([[1]]);
  });

  it('stop records what waits, and from then on each group at the end of its turn, with no window', async () => {
    const { batcher, groups, add } = batcherUnderTest();
    add(1);
    await endTurn();
    batcher.stop();
    expect(groups).toEqual([[1]]);
    expect(vi.getTimerCount()).toBe(0);
    add(2);
    await endTurn();
    expect(groups).toEqual([[1], [2]]);
    expect(vi.getTimerCount()).toBe(0);
    batcher.stop();
    expect(groups).toEqual([[1], [2]]);
  });
});

describe('createOutcomeBatcher with the store', () => {
  it('records a group in one transaction; an outcome that fails leaves the others written and its row in flight', () =>
    withTempDir((dir) =>
      withStore(dir, async (db) => {
        const ids = ['A', 'B', 'C'].map((externalId) => addRequestRow(db, 'f', validRequest(externalId), externalId, T));
        claimDueSubmissions(db, { flow: 'f', now: T, leaseMs: 60_000, limit: 3 });
        const heard: RecordedAttempt[] = [];
        const record = vi.fn((group: readonly BatchedOutcome[]) => recordAttempts(db, group));
        const batcher = createOutcomeBatcher<BatchedOutcome>({ record, onRecorded: (_, result) => heard.push(result), capacity: 3, windowMs: 60_000 });
        // B's acknowledgement cannot be serialised: its write throws after its UPDATE ran.
        const ack = (id: number, record: Record<string, unknown>) => ({ channel: 'ack:f', sourceKey: `k${id}`, record, now: T });
        await Promise.all([
          batcher.add(outcome(ids[0]!, ack(ids[0]!, {}))),
          batcher.add(outcome(ids[1]!, ack(ids[1]!, { n: 1n }))),
          batcher.add(outcome(ids[2]!, ack(ids[2]!, {}))),
        ]);
        expect(record).toHaveBeenCalledTimes(1);
        expect(heard).toEqual([{ written: true }, { error: expect.any(TypeError) }, { written: true }]);
        expect(ids.map((id) => getSubmission(db, id)!.state)).toEqual(['accepted', 'in_flight', 'accepted']);
      }),
    ));
});
