/**
 * The console in a real browser (Debian's Chromium through playwright-core) against a real daemon,
 * the in-process sandbox and real folders: what an operator sees and does. (The manual's pictures
 * are `npm run screenshots`'s, from the demo.)
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/with-daemon.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { recordBusyDay, type BusyDay } from '../../helpers/console/history-rows.js';
import { collectErrors, withBrowser } from '../../helpers/console/with-browser.js';
import { PASSWORD, withConsoleDaemon } from '../../helpers/console/with-console-daemon.js';

const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');

async function signIn(page: Page, name: string, password: string): Promise<void> {
  await page.fill('input[name=name]', name);
  await page.fill('input[name=password]', password);
  await page.click('form.stack button[type=submit]');
}

async function getJson<T>(address: string): Promise<T> {
  return (await (await fetch(address, { headers: { accept: 'application/json' } })).json()) as T;
}

const request = (id: string) => `/flows/requests/requests/${encodeURIComponent(id)}`;

/** A chart's `aria-label` as the page should write it: the title, then each non-zero total. */
function summary(title: string, totals: [number, string][], item: (n: number, label: string) => string): string {
  return `${title}: ${totals
    .filter(([n]) => n > 0)
    .map(([n, label]) => item(n, label))
    .join(', ')}`;
}

/** The day `recordBusyDay` recorded, with the sample's three requests delivered live on top. */
const withSample = (day: BusyDay): BusyDay => ({ ...day, accepted: day.accepted + 3 });

/**
 * Drop the sample, let the sandbox accept its three requests and confirm their orders: three events
 * applied on top of the `appliedBefore` the store held.
 */
async function deliverSample(
  url: string,
  inbox: string,
  daemon: { sandbox: { requests(): { orderId: string }[]; setOrderStatus(id: string, s: string): void } | null },
  appliedBefore: number,
) {
  fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
  await waitUntil(() => daemon.sandbox!.requests().length === 3, 'three requests accepted');
  for (const r of daemon.sandbox!.requests()) daemon.sandbox!.setOrderStatus(r.orderId, 'confirmed');
  await waitUntil(async () => {
    const { lastDay } = (await getJson<{ webhook: { lastDay: { series: { applied: number[] } } } }>(`${url}/`)).webhook;
    return lastDay.series.applied.reduce((a, b) => a + b) === appliedBefore + 3;
  }, 'three events applied');
}

// A browser and a daemon on a machine busy with the rest of the suite: a step may wait, never forever.
describe('the console in Chromium', { timeout: 120_000 }, () => {
  it('shows a dropped file’s requests on / as they are delivered (live), and each request’s timeline', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      await withBrowser(async (open) => {
        const { page } = await open();
        const errors = collectErrors(page);
        await page.goto(`${url}/`);
        await expect(page.locator('.flow .counts')).toBeDefined();
        fs.copyFileSync(SAMPLE, path.join(inbox, 'requests-0612.csv'));
        // No reload: console.js swaps in the fresh counts under the strict CSP (which even refuses the test's own eval).
        await waitUntil(async () => (await page.textContent('.flow .counts tr:nth-child(3) td.num')) === '3', 'the live count of accepted requests', 20_000);
        for (const r of daemon.sandbox!.requests()) daemon.sandbox!.setOrderStatus(r.orderId, 'confirmed');
        await waitUntil(async () => (await getJson<{ events: unknown[] }>(`${url}/events`)).events.length === 3, 'three events');
        // An acknowledgement is marked written after its file is in the folder, and the exporter
        // gives way while the webhooks keep waking it: wait for the marks, not for the acceptances.
        type Channels = { exporter: { channels: { channel: string; pending: number; lastFile: unknown }[] } };
        await waitUntil(async () => {
          const ack = (await getJson<Channels>(`${url}/`)).exporter.channels.find((c) => c.channel === 'ack:requests');
          return ack !== undefined && ack.pending === 0 && ack.lastFile !== null;
        }, 'the three acknowledgements written');
        await page.reload();
        expect(await page.textContent('.cards')).toContain('ack-');

        // The menu's Requests are every flow's: the search there looks in each.
        await page.click('header nav a[href="/requests"]');
        await page.fill('input[name=q]', 'ЗК-000102');
        await page.click('form.search button');
        await page.click(`a[href="${request('ЗК-000102')}"]`);
        expect(new URL(page.url()).pathname).toBe(request('ЗК-000102'));
        const timeline = await page.textContent('ol.timeline');
        expect(timeline).toContain('Recorded from requests-0612.csv, row 5');
        expect(timeline).toMatch(/Attempt 1: 201/);
        expect(timeline).toContain('X-Request-Id');
        expect(timeline).toMatch(/Outcome: accepted PRC-REQ-\d+/);
        expect(timeline).toMatch(/Acknowledgement ack-ЗК-000102-\d+\.csv \(written\)/);
        await page.click('ol.timeline details summary');
        expect(errors, errors.join('\n')).toEqual([]);
      });
    });
  });

  it('draws the last 24 hours on / as SVG with JavaScript off: bars in patterns coloured by console.css, a tooltip per hour, legends in words', async () => {
    let seeded: BusyDay | undefined;
    await withConsoleDaemon({ seed: (db) => (seeded = recordBusyDay(db, 'requests', Date.now())) }, async ({ url, inbox, daemon }) => {
      await deliverSample(url, inbox, daemon, seeded!.applied);
      const day = withSample(seeded!);
      await withBrowser(async (open) => {
        const { page } = await open({ javaScript: false });
        const errors = collectErrors(page);
        await page.goto(`${url}/`);
        const [requests, events] = [page.locator('figure.chart').nth(0), page.locator('figure.chart').nth(1)];
        expect(await page.locator('figure.chart').count()).toBe(2);
        expect(await requests.locator('svg[role=img]').getAttribute('aria-label')).toBe(
          summary(
            'Requests per hour, last 24 h',
            [
              [day.accepted, 'accepted'],
              [day.retry, 'retrying'],
              [day.held, 'held'],
              [day.rejected, 'rejected'],
              [day.dead, 'dead'],
            ],
            (n, label) => `${n} ${label}`,
          ),
        );
        expect(await events.locator('svg[role=img]').getAttribute('aria-label')).toBe(
          summary(
            'Webhook events per hour, last 24 h',
            [
              [day.applied + 3, 'applied'],
              [day.storedOnly, 'stored only'],
            ],
            (n, label) => `${n} ${label}`,
          ),
        );
        expect(await requests.locator('.hits title').count()).toBe(24);
        expect(await requests.locator('.hits title').last().textContent()).toMatch(/^\d\d:00–\d\d:\d\d \(now\): \d+ accepted/);
        expect(await requests.locator('ul.legend li').allTextContents()).toEqual([
          `${day.accepted} accepted`,
          `${day.retry} retrying`,
          `${day.held} held`,
          `${day.rejected} rejected`,
          `${day.dead} dead`,
        ]);
        // Drawn, not only present: the bars have a size, and console.css colours their patterns.
        expect((await requests.locator('path.b-accepted').boundingBox())!.height).toBeGreaterThan(40);
        // Run in the page (this file is compiled without the DOM's types).
        const fill = (selector: string) =>
          page
            .locator(selector)
            .evaluate((element) => (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string } }).getComputedStyle(element).fill);
        expect(await fill('#chart-flow-0-accepted rect.bg')).toBe('rgb(45, 164, 78)');
        expect(await fill('#chart-flow-0-dead rect.bg')).toBe('rgb(36, 41, 47)');
        expect(errors, errors.join('\n')).toEqual([]);
      });
    });
  });

  it('shows a rejected file’s problems as a table with its reports, and takes it again after the mapping is fixed', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon, dir }) => {
      fs.copyFileSync(path.join(REPO, 'samples/broken/missing-column.csv'), path.join(inbox, 'requests-0613.csv'));
      await waitUntil(() => fs.readdirSync(path.join(inbox, 'rejected')).some((n) => n.endsWith('requests-0613.csv')), 'the file rejected');
      await withBrowser(async (open) => {
        const { page } = await open();
        const errors = collectErrors(page);
        await page.goto(`${url}/flows/requests/files`);
        await page.click('text=requests-0613.csv');
        const problems = await page.locator('table.problems tbody tr').allTextContents();
        expect(problems).toHaveLength(1);
        expect(problems[0]).toContain('COLUMN_MISSING');
        expect(problems[0]).toContain('Количество');
        const [download] = await Promise.all([page.waitForEvent('download'), page.click('a[href$="errors.csv"]')]);
        const csv = fs.readFileSync((await download.path())!, 'utf8');
        expect(csv.startsWith('\uFEFFrow (rows are numbered as lines of the file: the header is line 1);field;code;message;externalId')).toBe(true);
        expect(csv).toContain('COLUMN_MISSING');

        // The mapping is fixed (every line one piece) and reloaded; the operator takes the file again.
        const mapping = path.join(dir, 'mapping.yaml');
        fs.writeFileSync(mapping, fs.readFileSync(mapping, 'utf8').replace(/quantity: \{[^}]*\}/, 'quantity: { const: 1 }'));
        expect(daemon.reload()).toEqual({ ok: true });
        await page.click('a.button:has-text("Take again")');
        expect(page.url()).toContain('/login?next=');
        await signIn(page, 'Ivan', PASSWORD);
        expect(await page.textContent('main')).toContain('from rejected/ back into the inbox');
        await page.click('button:has-text("Confirm")');
        expect(await page.textContent('.flash')).toMatch(/Take a file again: done\. Moved back into the inbox as requests-0613\.csv/);
        await waitUntil(() => daemon.sandbox!.requests().length === 3, 'the file’s three requests accepted');
        await page.reload();
        expect(await page.textContent('dl.facts')).toContain('archived');
        expect(await page.textContent('table.audit')).toContain('Ivan');
        expect(errors, errors.join('\n')).toEqual([]);
      });
    });
  });

  it('retries a dead-lettered request once the platform works again, and shows the audit entry', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      daemon.sandbox!.setFaults({ create: { status500: 1 } });
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(async () => {
        const data = await getJson<{ flows: { dead: { total: number } }[] }>(`${url}/attention`);
        return data.flows[0]!.dead.total === 3;
      }, 'three dead letters');
      await withBrowser(async (open) => {
        const { page } = await open();
        await page.goto(`${url}/attention`);
        expect(await page.textContent('main')).toContain('SUBMISSION_DEAD');

        daemon.sandbox!.setFaults({});
        await page.goto(`${url}${request('ЗК-000101')}`);
        expect(await page.textContent('ol.timeline')).toMatch(/Attempt 2: 500/);
        await page.click('a.button:has-text("Retry")');
        await signIn(page, 'Анна', PASSWORD);
        await page.click('button:has-text("Confirm")');
        expect(new URL(page.url()).pathname).toBe(request('ЗК-000101'));
        expect(await page.textContent('.flash')).toContain('Retry a request: done. 1 submission requeued with its Idempotency-Key');
        await waitUntil(async () => (await page.textContent('.story .badge')) === 'accepted', 'the live state accepted', 20_000);
        const timeline = await page.textContent('ol.timeline');
        expect(timeline).toContain('Анна: retry a request (done)');
        expect(timeline).toMatch(/Attempt 3: 201/);
        await page.goto(`${url}/audit`);
        expect(await page.textContent('table.audit')).toContain('Анна');
        // The other two stay dead: only the one asked for was retried.
        expect(daemon.sandbox!.requests().map((r) => r.externalId)).toEqual(['ЗК-000101']);
      });
    });
  });

  it('works with JavaScript off: find a request, read its story, retry it behind the sign-in and the confirmation', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      daemon.sandbox!.setFaults({ create: { status500: 1 } });
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(
        async () => (await getJson<{ flows: { dead: { total: number } }[] }>(`${url}/attention`)).flows[0]!.dead.total === 3,
        'three dead letters',
      );
      daemon.sandbox!.setFaults({});
      await withBrowser(async (open) => {
        const { page } = await open({ javaScript: false });
        await page.goto(`${url}/`);
        // Every flow's requests, then the flow's own page from the flow chooser.
        await page.click('header nav a[href="/requests"]');
        await page.click('.flow-chooser a[href="/flows/requests/requests"]');
        await page.fill('input[name=q]', 'ЗК-000103');
        await page.click('form.search button');
        expect(new URL(page.url()).search).toBe(`?q=${encodeURIComponent('ЗК-000103')}`);
        await page.click(`a[href="${request('ЗК-000103')}"]`);
        expect(await page.textContent('ol.timeline')).toMatch(/Attempt 2: 500/);

        await page.click('a.button:has-text("Retry")');
        await signIn(page, 'Олег', PASSWORD);
        await page.click('button:has-text("Confirm")');
        expect(new URL(page.url()).pathname).toBe(request('ЗК-000103'));
        expect(await page.textContent('.flash')).toContain('Retry a request: done. 1 submission requeued with its Idempotency-Key');
        await waitUntil(() => daemon.sandbox!.requests().length === 1, 'the retried request accepted', 20_000);
        // No script refreshes the page: a reload shows the new state (once the 201 is recorded,
        // a moment after the request reached the platform).
        await waitUntil(async () => {
          await page.reload();
          return (await page.textContent('.story .badge')) === 'accepted';
        }, 'the retried request shown accepted');
        expect(daemon.sandbox!.requests().map((r) => r.externalId)).toEqual(['ЗК-000103']);
      });
    });
  });

  it('asks beyond loopback for the password on every page, refuses a POST without the CSRF token, and rate-limits wrong passwords', async () => {
    await withConsoleDaemon({ host: '0.0.0.0' }, async ({ url }) => {
      await withBrowser(async (open) => {
        const { page } = await open();
        await page.goto(`${url}/attention`);
        expect(new URL(page.url()).pathname).toBe('/login');
        await signIn(page, 'Ivan', PASSWORD);
        expect(new URL(page.url()).pathname).toBe('/attention');

        await page.goto(`${url}/flows/requests/dead/retry`);
        await page.evaluate("document.querySelector('main input[name=_csrf]').remove()");
        const refused = await Promise.all([page.waitForNavigation(), page.click('button:has-text("Confirm")')]).then(([response]) => response!);
        expect(refused.status()).toBe(403);
        expect(await page.textContent('main')).toContain('the form is stale or came from another site');
        await page.goto(`${url}/audit`);
        expect(await page.textContent('main')).toContain('None.');

        await page.click('header button:has-text("Sign out")');
        await page.goto(`${url}/`);
        expect(new URL(page.url()).pathname).toBe('/login');
        for (let i = 0; i < 5; i += 1) {
          await signIn(page, 'Mallory', `guess-${i}`);
          expect(await page.textContent('.error')).toBe('Wrong password.');
        }
        const limited = await Promise.all([page.waitForNavigation(), signIn(page, 'Mallory', PASSWORD)]).then(([response]) => response!);
        expect(limited.status()).toBe(429);
        expect(await page.textContent('.error')).toMatch(/Too many failed attempts from your address\. Try again in 1[45] min/);
      });
    });
  });

  it('speaks Russian by default', async () => {
    let seeded: BusyDay | undefined;
    await withConsoleDaemon({ language: 'ru', seed: (db) => (seeded = recordBusyDay(db, 'requests', Date.now())) }, async ({ url, inbox, daemon }) => {
      await deliverSample(url, inbox, daemon, seeded!.applied);
      const day = withSample(seeded!);
      await withBrowser(async (open) => {
        const { page } = await open({ locale: 'ru-RU' });
        await page.goto(`${url}/`);
        expect(await page.textContent('header nav')).toContain('Требует внимания');
        expect(await page.textContent('.cards')).toContain('принята');
        expect(await page.locator('figure.chart svg[role=img]').first().getAttribute('aria-label')).toBe(
          summary(
            'Заявки по часам за последние 24 ч',
            [
              [day.accepted, 'принято'],
              [day.retry, 'повтор'],
              [day.held, 'задержано'],
              [day.rejected, 'отклонено'],
              [day.dead, 'не доставлено'],
            ],
            (n, label) => `${label}: ${n}`,
          ),
        );
      });
    });
  });
});
