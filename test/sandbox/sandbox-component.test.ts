import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';

/** The sandbox as the demo daemon starts it: a component, started and stopped with the daemon. */
describe('createSandbox', () => {
  it('starts one sandbox for two concurrent starts, stops it, and a restart serves again', async () => {
    const component = createSandbox({ port: 0, timeScale: 0 });
    const [first, second] = await Promise.all([component.start(), component.start()]);
    expect(second).toBe(first);
    expect((await fetch(`${first.url}/`)).status).toBe(404);
    await Promise.all([component.stop(), component.stop()]);
    await expect(fetch(`${first.url}/`)).rejects.toThrow();
    const again = await component.start();
    try {
      expect(again).not.toBe(first);
      expect((await fetch(`${again.url}/`)).status).toBe(404);
    } finally {
      await component.stop();
    }
  });
});
