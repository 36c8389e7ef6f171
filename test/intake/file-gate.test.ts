import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/mapping/index.js';
import { createFileGate } from '../../src/intake/file-gate.js';
import { createIntake } from '../../src/intake/index.js';
import { ensureInboxDirs } from '../../src/intake/intake-context.js';
import { scanInbox } from '../../src/intake/scan-inbox.js';
import { createStabilityTracker } from '../../src/intake/stability.js';
import { silentLogger } from '../../src/log.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';
import { SOURCE_SYSTEM, dropFile, withIntake } from '../helpers/with-intake.js';

/** A promise and its resolve, to hold a place of the gate until the test lets go. */
function held(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

describe('createFileGate', () => {
  it('runs at most `places` at once, and the waiting ones in the order they asked', async () => {
    const gate = createFileGate(2);
    const holds = [held(), held(), held(), held()];
    const started: number[] = [];
    const runs = holds.map((h, i) =>
      gate.run(async () => {
        started.push(i);
        await h.promise;
        return i;
      }),
    );
    await waitUntil(() => started.length === 2, 'two running');
    expect({ taking: gate.taking, waiting: gate.waiting }).toEqual({ taking: 2, waiting: 2 });
    holds[1]!.release();
    await waitUntil(() => started.length === 3, 'the first waiting one running');
    expect(started).toEqual([0, 1, 2]);
    holds[0]!.release();
    holds[2]!.release();
    holds[3]!.release();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect({ taking: gate.taking, waiting: gate.waiting }).toEqual({ taking: 0, waiting: 0 });
  });

  it('frees the place of a run that throws', async () => {
    const gate = createFileGate(1);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(() => Promise.resolve('next'))).toBe('next');
    expect(gate.taking).toBe(0);
  });

  it('gives up a wait when its signal aborts, without running it, and the others keep their turn', async () => {
    const gate = createFileGate(1);
    const first = held();
    const running = gate.run(() => first.promise);
    const stop = new AbortController();
    let ran = false;
    const waiting = gate.run(async () => {
      ran = true;
    }, stop.signal);
    const after = gate.run(() => Promise.resolve('after'));
    expect(gate.waiting).toBe(2);
    stop.abort(new Error('stopping'));
    await expect(waiting).rejects.toThrow('stopping');
    expect(gate.waiting).toBe(1);
    first.release();
    await running;
    expect(await after).toBe('after');
    expect(ran).toBe(false);
    await expect(gate.run(() => Promise.resolve(), stop.signal)).rejects.toThrow('stopping');
  });

  it('needs at least one place', () => {
    expect(() => createFileGate(0)).toThrow(RangeError);
  });
});

describe('intake: the file gate shared by the flows', () => {
  it('takes a ready file only once the gate has a place, and leaves it untouched when stopped while waiting', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const gate = createFileGate(1);
      const other = held();
      // Another flow's file holds the only place.
      const otherFile = gate.run(() => other.promise);
      await dropFile(f.inbox, 'waits.csv', requestCsv([requestRow('G-1')]));
      const ctx = f.context({ fileGate: gate });
      await ensureInboxDirs(ctx.dirs);
      const tracker = createStabilityTracker(f.flow.intake);

      const stop = new AbortController();
      const stopped = scanInbox(ctx, tracker, { signal: stop.signal });
      await waitUntil(() => gate.waiting === 1, 'the scan waiting for the gate');
      stop.abort();
      expect(await stopped).toMatchObject({ taken: 0, failed: 0 });
      expect(await f.list()).toEqual(['waits.csv']);
      expect(f.files()).toEqual([]);

      const scan = scanInbox(ctx, tracker, { signal: new AbortController().signal });
      await waitUntil(() => gate.waiting === 1, 'the next scan waiting for the gate');
      expect(f.files()).toEqual([]);
      other.release();
      await otherFile;
      expect(await scan).toMatchObject({ taken: 1, failed: 0 });
      expect(f.files()).toEqual([expect.objectContaining({ originalName: 'waits.csv', state: 'archived' })]);
    });
  });

  it('an intake given the gate waits for it, and its stop ends the wait', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const gate = createFileGate(1);
      const other = held();
      const otherFile = gate.run(() => other.promise);
      await dropFile(f.inbox, 'waits.csv', requestCsv([requestRow('G-2')]));
      const intake = createIntake({
        db: f.db,
        flow: f.flow,
        sourceSystem: SOURCE_SYSTEM,
        mapping: loadMappingSpec(f.flow.mapping),
        logger: silentLogger,
        fileGate: gate,
      });
      try {
        const started = intake.start();
        await waitUntil(() => gate.waiting === 1, 'the first scan waiting for the gate');
        await intake.stop();
        await started;
        expect(gate.waiting).toBe(0);
        expect(await f.list()).toEqual(['waits.csv']);
        expect(f.files()).toEqual([]);

        // Started again, it waits again, and takes the file once the place is free.
        const again = intake.start();
        await waitUntil(() => gate.waiting === 1, 'the first scan waiting again');
        other.release();
        await otherFile;
        await again;
        expect(f.files()).toEqual([expect.objectContaining({ originalName: 'waits.csv', state: 'archived' })]);
      } finally {
        other.release();
        await intake.stop();
      }
    });
  });
});
