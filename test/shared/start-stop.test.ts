import { describe, expect, it } from 'vitest';
import { createStartStop, type StartStopWork } from '../../src/shared/start-stop.js';

/** A promise settled by hand, so that a test decides when a start ends. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Start and stop work that writes what happens into `events`; `starts` hands each start its own end. */
function work(events: string[], afterStop: StartStopWork<string>['afterStop'], starts: Promise<void>[] = []): StartStopWork<string> {
  let count = 0;
  return {
    async start() {
      count += 1;
      const n = count;
      events.push(`start ${n}`);
      await starts[n - 1];
      events.push(`started ${n}`);
      return `handle ${n}`;
    },
    interrupt: () => void events.push('interrupt'),
    async stop() {
      events.push('stop');
    },
    afterStop,
  };
}

describe('createStartStop', () => {
  it('runs the start work once: a second start() gets the first one promise', async () => {
    const events: string[] = [];
    const parts = createStartStop(work(events, 'restart'));
    const first = parts.start();
    expect(parts.start()).toBe(first);
    expect(await first).toBe('handle 1');
    expect(events).toEqual(['start 1', 'started 1']);
  });

  it('stop() during a start interrupts it at once, waits for it, then stops; a second stop() gets the same promise', async () => {
    const events: string[] = [];
    const gate = deferred();
    const parts = createStartStop(work(events, 'restart', [gate.promise]));
    const started = parts.start();
    const stopped = parts.stop();
    expect(parts.stop()).toBe(stopped);
    expect(parts.stopping).toBe(true);
    expect(events).toEqual(['start 1', 'interrupt']);
    gate.resolve();
    await stopped;
    expect(await started).toBe('handle 1');
    expect(events).toEqual(['start 1', 'interrupt', 'started 1', 'stop']);
  });

  it('runs the stop work after a failed start too', async () => {
    const events: string[] = [];
    const parts = createStartStop(work(events, 'restart', [Promise.reject(new Error('no inbox'))]));
    await expect(parts.start()).rejects.toThrow('no inbox');
    await parts.stop();
    expect(events).toEqual(['start 1', 'interrupt', 'stop']);
  });

  it('runs nothing for a stop() before any start()', async () => {
    const events: string[] = [];
    const parts = createStartStop(work(events, 'restart'));
    await parts.stop();
    expect(parts.stopping).toBe(false);
    await parts.start();
    expect(events).toEqual(['start 1', 'started 1']);
  });

  describe('restartable', () => {
    it('starts anew once the stop has ended; during the stop start() returns the old promise', async () => {
      const events: string[] = [];
      const parts = createStartStop(work(events, 'restart'));
      const first = parts.start();
      await first;
      const stopped = parts.stop();
      expect(parts.start()).toBe(first);
      await stopped;
      expect(parts.stopping).toBe(true);
      expect(await parts.start()).toBe('handle 2');
      expect(parts.stopping).toBe(false);
      expect(events).toEqual(['start 1', 'started 1', 'interrupt', 'stop', 'start 2', 'started 2']);
    });

    it('runs nothing for a stop() after the stop has ended', async () => {
      const events: string[] = [];
      const parts = createStartStop(work(events, 'restart'));
      await parts.start();
      await parts.stop();
      await parts.stop();
      expect(events.filter((event) => event === 'stop')).toHaveLength(1);
    });
  });

  describe('one-shot', () => {
    const refuse = () => new Error('stopped; create a new one');

    it('refuses start() after a stop(), even one before any start', async () => {
      const events: string[] = [];
      const parts = createStartStop(work(events, refuse));
      const stopped = parts.stop();
      expect(parts.stop()).toBe(stopped);
      await stopped;
      expect(parts.stopping).toBe(true);
      await expect(parts.start()).rejects.toThrow('stopped; create a new one');
      expect(events).toEqual([]);
    });

    it('refuses start() during and after the stop of a start, and stops once', async () => {
      const events: string[] = [];
      const parts = createStartStop(work(events, refuse));
      await parts.start();
      const stopped = parts.stop();
      await expect(parts.start()).rejects.toThrow('stopped; create a new one');
      await stopped;
      expect(parts.stop()).toBe(stopped);
      await expect(parts.start()).rejects.toThrow('stopped; create a new one');
      expect(events).toEqual(['start 1', 'started 1', 'interrupt', 'stop']);
    });
  });
});
