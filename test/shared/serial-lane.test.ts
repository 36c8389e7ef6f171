import { describe, expect, it } from 'vitest';
import { createSerialLane } from '../../src/shared/serial-lane.js';

/** A promise settled by hand, so that a test decides when a job ends. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Let every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createSerialLane', () => {
  it('runs jobs one after another, in the order they were added, and hands back each result', async () => {
    const lane = createSerialLane();
    const events: string[] = [];
    const first = deferred();
    const a = lane.run(async () => {
      events.push('a starts');
      await first.promise;
      events.push('a ends');
      return 'a';
    });
    const b = lane.run(async () => {
      events.push('b runs');
      return 'b';
    });
    await settle();
    expect(events).toEqual(['a starts']);
    first.resolve();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(events).toEqual(['a starts', 'a ends', 'b runs']);
  });

  it('rejects the caller of a failed job and goes on with the next one', async () => {
    const lane = createSerialLane();
    const failed = lane.run(() => Promise.reject(new Error('disk full')));
    const thrown = lane.run(() => {
      throw new Error('thrown before any await');
    });
    const next = lane.run(async () => 'still runs');
    await expect(failed).rejects.toThrow('disk full');
    await expect(thrown).rejects.toThrow('thrown before any await');
    expect(await next).toBe('still runs');
  });

  it('idle() waits for every job added so far, never rejects, and does not wait for jobs added after it', async () => {
    const lane = createSerialLane();
    const running = deferred();
    const job = lane.run(() => running.promise);
    let idle = false;
    const idled = lane.idle().then(() => (idle = true));
    const later = deferred();
    const laterJob = lane.run(() => later.promise);
    await settle();
    expect(idle).toBe(false);
    running.reject(new Error('the job failed'));
    await expect(job).rejects.toThrow('the job failed');
    await idled;
    expect(idle).toBe(true);
    later.resolve();
    await laterJob;
    await expect(lane.idle()).resolves.toBeUndefined();
  });

  it('is idle at once when nothing was added', async () => {
    await expect(createSerialLane().idle()).resolves.toBeUndefined();
  });
});
