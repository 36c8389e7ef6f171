/**
 * A console page must not turn on Node's promise hooks for the daemon (`src/admin/console/render-html.ts`):
 * on Node 20, hono/jsx's `AsyncLocalStorage` would, and every promise of every stage would pay for
 * them from then on. With the hooks off, a promise callback runs with no execution id of its own (0).
 */
import { executionAsyncId } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { send } from '../../helpers/console/http.js';
import { withConsoleDaemon } from '../../helpers/console/with-console-daemon.js';

const promiseHooksOn = (): Promise<boolean> => new Promise((resolve) => void Promise.resolve().then(() => resolve(executionAsyncId() !== 0)));

describe('console pages and the promise hooks', () => {
  it('the overview, a page of the studio and a refusal are rendered, and the promise hooks stay off', async () => {
    await withConsoleDaemon({}, async ({ url }) => {
      expect(await promiseHooksOn()).toBe(false);
      const overview = await send(`${url}/`);
      expect(overview.status).toBe(200);
      expect(overview.body).toMatch(/^<!DOCTYPE html><html/);
      const studio = await send(`${url}/mapping?flow=requests`);
      expect(studio.status).toBe(200);
      expect(studio.body).toMatch(/^<!DOCTYPE html>/);
      expect((await send(`${url}/no-such-page`)).status).toBe(404);
      expect(await promiseHooksOn()).toBe(false);
    });
  });
});
