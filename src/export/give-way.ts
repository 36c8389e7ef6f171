/**
 * How the exporter shares the disk with the stages that wake it. A power-safe file costs fsyncs,
 * and fsyncs queue behind each other on one disk (ext4 commits its journal for each), so export
 * files written flat out during a webhook storm make every commit the listener waits for (one
 * WAL fsync before a 200) several times slower; with a fixed number of senders the listener then
 * answers several times fewer events, and the exporter gains nothing by it, since the storm lasts
 * longer. So while wake-ups keep coming (producers are committing), a background pass writes one
 * group per `busyGroupIntervalMs`, two files at a time, and the rest when they stop for `quietMs`,
 * eight at a time. libuv's thread pool has four threads, and each of a file's six calls is queued
 * only once the event loop has seen the one before it finish: with as many files as threads, a
 * thread that finished a call often found nothing queued meanwhile; with twice as many, another
 * file's call is waiting (docs/performance.md, Export).
 * A group per interval keeps the files moving under any load; an explicit `flush()` never waits.
 * Pure.
 */

export interface GiveWayPolicy {
  /** No wake-up for this long: producers are quiet, write flat out. */
  quietMs: number;
  /** While they are busy: at most one group per this interval. */
  busyGroupIntervalMs: number;
  /** Files written at the same time while producers are busy, and once they are quiet. */
  busyConcurrency: number;
  quietConcurrency: number;
}

/**
 * The exporter's policy: a group of 32 files a second for as long as a storm lasts (sixteen times a
 * large site's worst hour), flat out as soon as it stops. At a group every 200 ms the files' fsyncs
 * during a storm took a noticeable share of the listener's CPU per event and queued ahead of the
 * WAL fsyncs its answers wait for, for files that were not out sooner: the rest is written the
 * moment the storm stops (docs/performance.md, Export).
 */
export const GIVE_WAY: GiveWayPolicy = { quietMs: 50, busyGroupIntervalMs: 1_000, busyConcurrency: 2, quietConcurrency: 8 };

/**
 * Milliseconds to wait before writing the next group (0: write now), from monotonic times: now,
 * the last wake-up and the end of the last group written.
 */
export function giveWayMs(policy: GiveWayPolicy, now: number, lastWakeAt: number, lastGroupAt: number): number {
  const quietIn = lastWakeAt + policy.quietMs - now;
  const groupDueIn = lastGroupAt + policy.busyGroupIntervalMs - now;
  if (quietIn <= 0 || groupDueIn <= 0) return 0;
  return Math.min(quietIn, groupDueIn);
}

/** Files of the next group to write at the same time: fewer while producers are busy. */
export function writeConcurrency(policy: GiveWayPolicy, now: number, lastWakeAt: number): number {
  return now - lastWakeAt < policy.quietMs ? policy.busyConcurrency : policy.quietConcurrency;
}
