/**
 * Every page of the console fits a 1,400-pixel window in a real browser (Debian's Chromium through
 * playwright-core): nothing runs off its right edge, so the page never scrolls sideways, in either
 * language. The pages are `CONSOLE_PAGES` on a day's work (console-pages.ts); a GET route the
 * console registers that no page of that list opens fails the first test here.
 */
import type * as HonoModule from 'hono';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleSchema } from '../../../src/config/console-schema.js';
import { createConsole } from '../../../src/admin/console/create-console.js';
import { silentLogger } from '../../../src/log.js';
import { createMetrics } from '../../../src/metrics/metrics.js';
import { openStore, storePath } from '../../../src/store/open-store.js';
import { withTempDir } from '../../helpers/temp-dir.js';
import { buildEditorBundle } from '../../helpers/console/editor-page.js';
import { CONSOLE_PAGES, NOT_PAGES, walkEveryPage, withEveryPage } from '../../helpers/console/console-pages.js';
import { withBrowser } from '../../helpers/console/with-browser.js';

/** Every Hono app made while this file runs: the console's, with the routes it registered. */
const apps = vi.hoisted(() => [] as { routes: { method: string; path: string }[] }[]);
vi.mock('hono', async (importOriginal) => {
  const hono = await importOriginal<typeof HonoModule>();
  class RecordedHono extends hono.Hono {
    constructor(...args: ConstructorParameters<typeof hono.Hono>) {
      super(...args);
      apps.push(this);
    }
  }
  return { ...hono, Hono: RecordedHono };
});

/** What runs past the window's right edge: the outermost such elements (what sticks out) and the innermost (what pushes it). */
interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  outermost: string[];
  innermost: string[];
}

/** Measured in the page (written without the DOM's types, which this project's tests are compiled without). */
function measureOverflow(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    interface Box {
      left: number;
      right: number;
      width: number;
      height: number;
    }
    interface Node {
      tagName: string;
      id: string;
      className: unknown;
      textContent: string | null;
      parentElement: Node | null;
      children: ArrayLike<Node>;
      getBoundingClientRect(): Box;
    }
    const w = globalThis as unknown as {
      innerWidth: number;
      document: { documentElement: { scrollWidth: number }; body: Node & { querySelectorAll(selector: string): ArrayLike<Node> } };
      getComputedStyle(node: Node): { overflowX: string };
    };
    const edge = w.innerWidth;
    // A scrolling (or clipping) box shows its content inside itself: the box is measured, not what it holds.
    const clipped = (node: Node): boolean => {
      for (let up = node.parentElement; up && up !== w.document.body; up = up.parentElement) if (w.getComputedStyle(up).overflowX !== 'visible') return true;
      return false;
    };
    const past = (node: Node): boolean => {
      const box = node.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.right > edge + 0.5 && !clipped(node);
    };
    const name = (node: Node): string => {
      const classes = typeof node.className === 'string' && node.className.trim() ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 70);
      return `<${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${classes}> to ${Math.round(node.getBoundingClientRect().right)} px: “${text}”`;
    };
    const all = Array.from(w.document.body.querySelectorAll('*'));
    const over = all.filter(past);
    const overSet = new Set(over);
    return {
      scrollWidth: w.document.documentElement.scrollWidth,
      innerWidth: edge,
      outermost: over.filter((node) => !node.parentElement || !overSet.has(node.parentElement)).map(name),
      innermost: over.filter((node) => !Array.from(node.children).some((child) => overSet.has(child))).map(name),
    };
  });
}

/** Every page after a day's work, in a real browser: longer than one ordinary test, more so on a loaded machine. */
const WALK_TIMEOUT_MS = 120_000;

describe('every console page fits a 1,400-pixel window', () => {
  beforeAll(buildEditorBundle);

  it('has a page in CONSOLE_PAGES for every GET route the console registers', async () => {
    await withTempDir(async (dir) => {
      const db = openStore(storePath(dir));
      try {
        apps.length = 0;
        createConsole({
          db,
          config: consoleSchema.parse({}),
          listenerHost: '127.0.0.1',
          flows: [],
          metrics: createMetrics({ db, defaultMetrics: false }),
          readiness: () => Promise.resolve({ ready: true, reasons: [] }),
          operator: {
            retakeFile: () => Promise.reject(new Error('not in this test')),
            resumeFlow: () => false,
            flowGate: () => undefined,
            wakeDelivery: () => undefined,
            reloadMappings: () => ({ ok: true }),
          },
          logger: silentLogger,
          clock: Date.now,
          webhook: null,
          exportChannels: [],
        });
        expect(apps).toHaveLength(1);
        const registered = new Set(apps[0]!.routes.filter((route) => route.method === 'GET').map((route) => route.path));
        const covered = new Set([...CONSOLE_PAGES.map((p) => p.route).filter((route) => route !== null), ...Object.keys(NOT_PAGES)]);
        expect(
          [...registered].filter((route) => !covered.has(route)),
          'GET routes no page of CONSOLE_PAGES opens (add one, or a line to NOT_PAGES)',
        ).toEqual([]);
        expect(
          [...covered].filter((route) => !registered.has(route)),
          'routes of CONSOLE_PAGES the console does not register',
        ).toEqual([]);
      } finally {
        db.close();
      }
    });
  });

  it.each(['ru', 'en'] as const)(
    'in %s: no element runs past the right edge, the page does not scroll sideways',
    async (language) => {
      await withEveryPage({ language }, async (c) => {
        await withBrowser(async (open) => {
          const failures: string[] = [];
          await walkEveryPage(
            () => open({ locale: language === 'ru' ? 'ru-RU' : 'en-US' }),
            c,
            async (page, entry, address) => {
              const overflow = await measureOverflow(page);
              if (overflow.scrollWidth > overflow.innerWidth || overflow.outermost.length > 0) {
                failures.push(
                  [
                    `${entry.name} (${address}): ${overflow.scrollWidth} px wide in a ${overflow.innerWidth} px window`,
                    ...overflow.outermost.slice(0, 5).map((line) => `  sticks out: ${line}`),
                    ...overflow.innermost.slice(0, 5).map((line) => `  pushed by: ${line}`),
                  ].join('\n'),
                );
              }
            },
          );
          expect(failures.length, `pages wider than the window:\n${failures.join('\n')}\n`).toBe(0);
        });
      });
    },
    WALK_TIMEOUT_MS,
  );
});
