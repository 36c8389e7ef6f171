import { describe, expect, it } from 'vitest';
import { createLifecycle, type Component } from '../../src/shared/lifecycle.js';

/** A component that writes what happens to it into `events`; `failStop` makes its stop throw. */
function part(name: string, events: string[], options: { failStop?: boolean; failStart?: boolean } = {}): Component<string> {
  return {
    name,
    async start() {
      if (options.failStart) throw new Error(`${name} cannot start`);
      events.push(`start ${name}`);
      return `${name} handle`;
    },
    async stop() {
      events.push(`stop ${name}`);
      if (options.failStop) throw new Error(`${name} cannot stop`);
    },
  };
}

describe('createLifecycle', () => {
  it('starts in order, hands back what each start gave, and stops in reverse', async () => {
    const events: string[] = [];
    const lifecycle = createLifecycle(() => undefined);
    expect(await lifecycle.start(part('store', events))).toBe('store handle');
    await lifecycle.start(part('intake', events));
    await lifecycle.start(part('listener', events));
    expect(lifecycle.started).toEqual(['store', 'intake', 'listener']);
    await lifecycle.stopAll();
    expect(events).toEqual(['start store', 'start intake', 'start listener', 'stop listener', 'stop intake', 'stop store']);
    expect(lifecycle.started).toEqual([]);
  });

  it('reports a stop that fails and still stops the rest', async () => {
    const events: string[] = [];
    const failures: string[] = [];
    const lifecycle = createLifecycle((name, error) => failures.push(`${name}: ${(error as Error).message}`));
    await lifecycle.start(part('store', events));
    await lifecycle.start(part('exporter', events, { failStop: true }));
    await lifecycle.start(part('admin', events));
    await lifecycle.stopAll();
    expect(events.filter((e) => e.startsWith('stop'))).toEqual(['stop admin', 'stop exporter', 'stop store']);
    expect(failures).toEqual(['exporter: exporter cannot stop']);
  });

  it('does not count a component whose start failed: stopAll stops only the started ones', async () => {
    const events: string[] = [];
    const lifecycle = createLifecycle(() => undefined);
    await lifecycle.start(part('store', events));
    await expect(lifecycle.start(part('listener', events, { failStart: true }))).rejects.toThrow('listener cannot start');
    expect(lifecycle.started).toEqual(['store']);
    await lifecycle.stopAll();
    expect(events).toEqual(['start store', 'stop store']);
  });
});
