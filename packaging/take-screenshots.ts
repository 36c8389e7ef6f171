/**
 * `npm run screenshots`: the console's pictures in docs/images/, taken from the demo as `npm start`
 * runs it, in English and in Russian, so that the manual never shows a page the program no longer
 * draws. For each language it starts the daemon on `config/demo.yaml` (its built-in sandbox platform,
 * orders confirmed, shipped and delivered by themselves) in a folder of its own, with free ports,
 * gives it what a first day brings (1C's CSV export, a report saved as a workbook, CommerceML, 1C's
 * data synchronization, a file with a column missing), waits until the first order is delivered,
 * then opens each page of `SHOTS` in Chromium and saves it as `console-<name>.png` (English) and
 * `console-<name>-ru.png`. A page that does not show what its shot is of (`shows`) stops the run:
 * a picture of an error page is never written. `test/docs/screenshots.test.ts` runs it and holds
 * every picture the README and the guides cite to one it takes.
 *
 *   npm run screenshots                 (builds, then writes docs/images/)
 *   node dist/packaging/take-screenshots.js --out <folder> [--language en|ru]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseDocument } from 'yaml';
import { paths } from '../src/admin/console/paths.js';
import { loadConfig } from '../src/config/load-config.js';
import { programRoot } from '../src/config/schema-files.js';
import { startDaemon, type Daemon } from '../src/daemon/index.js';
import { silentLogger } from '../src/log.js';
import { withBrowser } from './chromium.js';

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What the demo's first day left, by the names the shots need. */
interface DayIds {
  rejectedFileId: number;
  /** The first request of 1C's CSV export, its order delivered. */
  request: string;
  orderId: string;
}

export interface Shot {
  /** `console-<name>.png`. */
  name: string;
  path: (ids: DayIds) => string;
  /** What the page must hold: text (ids and codes, the same in both languages), or an element. */
  shows: (ids: DayIds) => { text: string } | { selector: string };
  /** The mapping page's editor is drawn by script; other pages are shown as they come. */
  javaScript?: boolean;
}

const REQUESTS = 'requests';
const EXCHANGE = 'exchange-1c';
/** The file with a column missing, as it lies in the inbox. */
const BROKEN = 'requests-0614.csv';

export const SHOTS: readonly Shot[] = [
  { name: 'overview', path: () => paths.overview(), shows: () => ({ text: EXCHANGE }) },
  { name: 'attention', path: () => paths.attention(), shows: () => ({ text: BROKEN }) },
  { name: 'files', path: () => paths.files(REQUESTS), shows: () => ({ text: BROKEN }) },
  { name: 'file', path: (ids) => paths.file(REQUESTS, ids.rejectedFileId), shows: () => ({ text: 'COLUMN_MISSING' }) },
  { name: 'request', path: (ids) => paths.request(REQUESTS, ids.request), shows: () => ({ text: 'Idempotency-Key' }) },
  { name: 'order', path: (ids) => paths.order(ids.orderId), shows: () => ({ text: 'EVT-' }) },
  { name: 'events', path: () => paths.events(), shows: (ids) => ({ text: ids.orderId }) },
  { name: 'exchange', path: () => paths.exchange(EXCHANGE), shows: () => ({ text: 'УТ' }) },
  { name: 'mapping', path: () => paths.mapping(REQUESTS), shows: () => ({ selector: '.yaml-editor' }), javaScript: true },
  { name: 'login', path: () => paths.login(), shows: () => ({ selector: 'input[type=password]' }) },
];

export function imageName(shot: Pick<Shot, 'name'>, language: Language): string {
  return language === 'en' ? `console-${shot.name}.png` : `console-${shot.name}-${language}.png`;
}

/** Every picture the script writes. */
export function imageNames(languages: readonly Language[] = LANGUAGES): string[] {
  return languages.flatMap((language) => SHOTS.map((shot) => imageName(shot, language)));
}

export interface ScreenshotOptions {
  /** Where the pictures go (docs/images/ by default). */
  out: string;
  languages?: readonly Language[];
  /** A line per step. */
  say?: (line: string) => void;
}

/** Take every shot in every language; the names written, in order. */
export async function takeScreenshots(options: ScreenshotOptions): Promise<string[]> {
  const say = options.say ?? (() => {});
  fs.mkdirSync(options.out, { recursive: true });
  const written: string[] = [];
  for (const language of options.languages ?? LANGUAGES) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'procurement-connector-screenshots-'));
    try {
      say(`${language}: starting the demo in ${root}`);
      const daemon = await startDaemon({ config: demoConfig(root, language), logger: silentLogger });
      try {
        const admin = daemon.urls.admin!.replace('0.0.0.0', '127.0.0.1');
        const ids = await firstDay(daemon, root, admin, say);
        written.push(...(await photograph(admin, ids, language, options.out, say)));
      } finally {
        await daemon.stop();
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
  return written;
}

/** `config/demo.yaml` as it is, but living in `root` (its folders and state) on free ports, in `language`. */
function demoConfig(root: string, language: Language) {
  const repo = programRoot();
  const doc = parseDocument(fs.readFileSync(path.join(repo, 'config/demo.yaml'), 'utf8'));
  const inRoot = (value: unknown) => path.join(root, path.basename(String(value)));
  const inRepo = (value: unknown) => path.resolve(repo, String(value));
  doc.set('stateDir', path.join(root, 'state'));
  const flows = (doc.toJS() as { flows: { inbox: string; results?: string; mapping: string }[] }).flows;
  flows.forEach((flow, index) => {
    doc.setIn(['flows', index, 'inbox'], inRoot(flow.inbox));
    if (flow.results !== undefined) doc.setIn(['flows', index, 'results'], inRoot(flow.results));
    doc.setIn(['flows', index, 'mapping'], inRepo(flow.mapping));
  });
  doc.setIn(['export', 'folder'], inRoot(doc.getIn(['export', 'folder'])));
  doc.setIn(['export', 'mapping'], inRepo(doc.getIn(['export', 'mapping'])));
  for (const key of ['webhook', 'metrics', 'sandbox']) doc.setIn([key, 'port'], 0);
  doc.setIn(['console', 'language'], language);
  const file = path.join(root, 'demo.yaml');
  fs.writeFileSync(file, doc.toString());
  return loadConfig(file, process.env);
}

/** Drop a first day's files into the demo's folders; wait until they are taken and the first order delivered. */
async function firstDay(daemon: Daemon, root: string, admin: string, say: (line: string) => void): Promise<DayIds> {
  const sandbox = daemon.sandbox!;
  const samples = path.join(programRoot(), 'samples');
  const drop = (sample: string, folder: string, name = path.basename(sample)) => fs.copyFileSync(path.join(samples, sample), path.join(root, folder, name));

  say('1C’s CSV export');
  drop('requests-1c-windows1251.csv', 'inbox', 'requests-0612.csv');
  await until(() => sandbox.requests().length === 3, 'the CSV export’s three requests accepted');
  drop('requests-1c-report.xlsx', 'inbox-xlsx');
  drop('commerceml-orders.xml', 'inbox-xml');
  drop('broken/missing-column.csv', 'inbox', BROKEN);

  say('1C’s data synchronization');
  const message = path.join(root, 'exchange-1c', 'Message_УТ_ПК.xml');
  drop('enterprisedata/settings/Message_УТ_ПК.xml', 'exchange-1c');
  await until(() => !fs.existsSync(message) && fs.existsSync(path.join(root, 'exchange-1c', 'Message_ПК_УТ.xml')), 'the settings answered');
  drop('enterprisedata/data/Message_УТ_ПК.xml', 'exchange-1c');
  await until(() => sandbox.requests().some((r) => r.externalId.startsWith('ЗП-000502')), 'the purchase orders accepted');

  const files = async () => (await json(`${admin}${paths.files(REQUESTS)}`)).files as { id: number; originalName: string; state: string }[];
  const rejected = await until(async () => (await files()).find((f) => f.originalName === BROKEN && f.state === 'rejected'), 'the broken file rejected');
  const request = 'ЗК-000101';
  const orderId = sandbox.requests().find((r) => r.externalId === request)!.orderId;
  say(`waiting for ${orderId} to be delivered`);
  await until(() => sandbox.order(orderId)?.status === 'delivered', `${orderId} delivered`);
  await until(async () => JSON.stringify(await json(`${admin}${paths.order(orderId)}`)).includes('delivered'), 'the delivery event stored');
  return { rejectedFileId: rejected.id, request, orderId };
}

async function photograph(admin: string, ids: DayIds, language: Language, out: string, say: (line: string) => void): Promise<string[]> {
  return withBrowser(async (open) => {
    const written: string[] = [];
    for (const shot of SHOTS) {
      const { context, page } = await open({ locale: language === 'ru' ? 'ru-RU' : 'en-US', javaScript: shot.javaScript ?? false });
      try {
        const address = `${admin}${shot.path(ids)}`;
        const answer = await page.goto(address, { waitUntil: 'load' });
        if (shot.javaScript) await page.waitForLoadState('networkidle');
        const shows = shot.shows(ids);
        const body = (await page.textContent('body')) ?? '';
        const found = 'text' in shows ? body.includes(shows.text) : (await page.locator(shows.selector).count()) > 0;
        if (answer?.status() !== 200 || !found) {
          const what = 'text' in shows ? `"${shows.text}"` : shows.selector;
          const seen = body.replace(/\s+/g, ' ').slice(0, 2000);
          throw new Error(
            `screenshots: ${address} answered ${answer?.status() ?? 'nothing'} without ${what}: the shot ${shot.name} no longer shows what it is of\n${seen}`,
          );
        }
        const name = imageName(shot, language);
        fs.writeFileSync(path.join(out, name), await page.screenshot({ fullPage: true }));
        say(`  ${name}`);
        written.push(name);
      } finally {
        await context.close();
      }
    }
    return written;
  });
}

async function json(address: string): Promise<Record<string, unknown>> {
  const answer = await fetch(address, { headers: { accept: 'application/json' } });
  if (answer.status !== 200) throw new Error(`screenshots: GET ${address} answered ${answer.status}`);
  return (await answer.json()) as Record<string, unknown>;
}

/** Poll `check` until it gives something; the demo's orders move a step every three seconds. */
async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`screenshots: gave up waiting for ${what}`);
    await sleep(100);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argument = (name: string) => {
    const index = process.argv.indexOf(name);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const language = argument('--language');
  const languages = LANGUAGES.filter((l) => language === undefined || l === language);
  takeScreenshots({ out: argument('--out') ?? path.join(programRoot(), 'docs', 'images'), languages, say: (line) => console.log(line) }).then(
    (written) => console.log(`wrote ${written.length} pictures`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
