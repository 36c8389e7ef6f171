/** The daemon's bounded stop: 'stopped' when everything closed in time, 'timeout' past the bound, once only, no timer left behind. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBoundedStop, stopBoundMs, stopWithinBound } from '../../src/daemon/stop-bound.js';
import { createLogger } from '../../src/log.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { lines, logger };
}

/** A stop that finishes only when `finish()` is called. */
function heldStop() {
  let finish = (): void => undefined;
  let calls = 0;
  const stop = () => {
    calls += 1;
    return new Promise<void>((resolve) => {
      finish = resolve;
    });
  };
  return { stop, finish: () => finish(), calls: () => calls };
}

describe('stopWithinBound', () => {
  afterEach(() => vi.useRealTimers());

  it("is 'stopped' when the stop ends first, and leaves no timer", async () => {
    vi.useFakeTimers();
    const held = heldStop();
    const outcome = stopWithinBound(held.stop, 5_000);
    await vi.advanceTimersByTimeAsync(4_999);
    held.finish();
    expect(await outcome).toBe('stopped');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("is 'timeout' when the bound passes first", async () => {
    vi.useFakeTimers();
    const held = heldStop();
    const outcome = stopWithinBound(held.stop, 5_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await outcome).toBe('timeout');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('createBoundedStop', () => {
  afterEach(() => vi.useRealTimers());

  it('gives the whole stop shutdownTimeoutMs and 3 s for closing', () => {
    expect(stopBoundMs(10_000)).toBe(13_000);
  });

  it('stops once: a second call gets the first call’s outcome', async () => {
    const { lines, logger } = capture();
    const held = heldStop();
    const stop = createBoundedStop({ stopAll: held.stop, shutdownTimeoutMs: 10_000, logger });
    const first = stop();
    const second = stop();
    expect(second).toBe(first);
    held.finish();
    expect(await first).toBe('stopped');
    expect(await stop()).toBe('stopped');
    expect(held.calls()).toBe(1);
    expect(lines.map((line) => line.msg)).toEqual(['connector stopping', 'connector stopped']);
  });

  it('says so when the bound passed with components still stopping', async () => {
    vi.useFakeTimers();
    const { lines, logger } = capture();
    const held = heldStop();
    const outcome = createBoundedStop({ stopAll: held.stop, shutdownTimeoutMs: 1_000, logger })();
    await vi.advanceTimersByTimeAsync(stopBoundMs(1_000));
    expect(await outcome).toBe('timeout');
    expect(lines.at(-1)).toMatchObject({ level: 'error', shutdownTimeoutMs: 1_000, msg: 'stop took longer than its bound; exiting anyway' });
  });
});
