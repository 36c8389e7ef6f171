/**
 * Every page of the console, opened on a daemon with something on each: a test that checks a
 * thing of every page (it fits a 1,400-pixel window; a Russian page is in Russian) walks
 * `CONSOLE_PAGES` with `walkEveryPage` and checks that one thing.
 *
 * `withEveryPage(options, fn)` starts the daemon with two flows, `requests` (1C's CSV) and
 * `exchange-1c` (1C's EnterpriseData through a folder), and gives it a day's work: three requests
 * accepted and their orders confirmed; three dead-lettered, one of them retried by an operator and
 * dead again; a file with a problem (its other requests accepted); a file rejected whole; 1C's
 * settings message, a message with two purchase orders, and one with an order the platform cannot
 * take (three problems, one of them on a long XML path); a message in its folder for other codes. `CONSOLE_PAGES` names a page of each GET
 * route the console registers (the test of the routes compares them) on that data.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { paths } from '../../../src/admin/console/paths.js';
import { edMessage, edOrder, edWithdrawal, type EdOrderInput } from '../enterprisedata.js';
import { REPO } from '../with-daemon.js';
import { waitUntil } from '../wait-until.js';
import { form, send, signIn } from './http.js';
import { PASSWORD, withConsoleDaemon, type ConsoleDaemon } from './with-console-daemon.js';

/** What the data of `withEveryPage` holds, by the names the page list needs. */
export interface EveryPageIds {
  /** The request dead-lettered, retried by an operator, and dead again. */
  deadRequest: string;
  /** An accepted request. */
  acceptedRequest: string;
  /** Its order, which the platform confirmed. */
  orderId: string;
  /** A purchase order from 1C's exchange. */
  exchangeRequest: string;
  problemFileId: number;
  rejectedFileId: number;
  /** The archived file with a problem, as the mapping page names it among its samples. */
  problemSampleId: string;
  /** 1C's message with an order the platform cannot take (three problems), and it as a sample. */
  exchangeProblemFileId: number;
  exchangeProblemSampleId: string;
  /** A notice of an order changed in 1C after it was sent. */
  noticeId: number;
}

/** The identity (Ссылка) of the sample's second order, which 1C's third message withdraws after it was sent. */
const EXCHANGE_WITHDRAWN_REF = '6f1c2a4e-8b3d-11ee-b962-0242ac120003';

export interface ConsolePage {
  /** What it shows, for failure messages. */
  name: string;
  /** The GET route that serves it, as registered (`/flows/:flow/files/:fileId{[0-9]+}`); null for the page of a path that is none. */
  route: string | null;
  path: (ids: EveryPageIds) => string;
  /** Opened without a session (signed in, the sign-in page sends the operator on). */
  signedOut?: boolean;
  /** Answered with this status (default 200). */
  status?: number;
}

export const REQUESTS_FLOW = 'requests';
export const EXCHANGE_FLOW = 'exchange-1c';

/** Every page, on the data of `withEveryPage`. A new GET route needs a page here (or a line in `NOT_PAGES`): the routes test says so. */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  { name: 'the overview', route: '/', path: () => paths.overview() },
  { name: 'what needs attention', route: '/attention', path: () => paths.attention() },
  { name: 'the events', route: '/events', path: () => paths.events() },
  { name: 'the operators’ actions', route: '/audit', path: () => paths.audit() },
  { name: 'the requests of every flow', route: '/requests', path: () => paths.allRequests() },
  { name: 'a search across flows', route: '/requests', path: () => paths.allRequests('ЗК-0002') },
  { name: 'the files of every flow', route: '/files', path: () => paths.allFiles() },
  { name: 'the rejected files of every flow', route: '/files', path: () => paths.allFiles('rejected') },
  { name: 'a flow’s requests', route: '/flows/:flow/requests', path: () => paths.search(REQUESTS_FLOW) },
  { name: 'a dead request, retried', route: '/flows/:flow/requests/:externalId', path: (ids) => paths.request(REQUESTS_FLOW, ids.deadRequest) },
  { name: 'an accepted request', route: '/flows/:flow/requests/:externalId', path: (ids) => paths.request(REQUESTS_FLOW, ids.acceptedRequest) },
  { name: 'a request from 1C’s exchange', route: '/flows/:flow/requests/:externalId', path: (ids) => paths.request(EXCHANGE_FLOW, ids.exchangeRequest) },
  { name: 'an order', route: '/orders/:orderId', path: (ids) => paths.order(ids.orderId) },
  { name: 'a flow’s files', route: '/flows/:flow/files', path: () => paths.files(REQUESTS_FLOW) },
  { name: 'a file with a problem', route: '/flows/:flow/files/:fileId{[0-9]+}', path: (ids) => paths.file(REQUESTS_FLOW, ids.problemFileId) },
  { name: 'a rejected file', route: '/flows/:flow/files/:fileId{[0-9]+}', path: (ids) => paths.file(REQUESTS_FLOW, ids.rejectedFileId) },
  {
    name: 'a message from 1C with problems',
    route: '/flows/:flow/files/:fileId{[0-9]+}',
    path: (ids) => paths.file(EXCHANGE_FLOW, ids.exchangeProblemFileId),
  },
  { name: 'the exchange with 1C', route: '/flows/:flow/exchange', path: () => paths.exchange(EXCHANGE_FLOW) },
  { name: 'the mapping on a sample with a problem', route: '/mapping', path: (ids) => paths.mapping(REQUESTS_FLOW, ids.problemSampleId) },
  {
    name: 'the exchange’s mapping on 1C’s message with problems',
    route: '/mapping',
    path: (ids) => paths.mapping(EXCHANGE_FLOW, ids.exchangeProblemSampleId),
  },
  {
    name: 'retry a request?',
    route: '/flows/:flow/requests/:externalId/retry',
    path: (ids) => paths.retryRequest(REQUESTS_FLOW, ids.deadRequest),
  },
  { name: 'retry the dead letters?', route: '/flows/:flow/dead/retry', path: () => paths.retryDead(REQUESTS_FLOW) },
  { name: 'take a file again?', route: '/flows/:flow/files/:fileId{[0-9]+}/retake', path: (ids) => paths.retakeFile(REQUESTS_FLOW, ids.rejectedFileId) },
  { name: 'resume a flow?', route: '/flows/:flow/resume', path: () => paths.resumeFlow(REQUESTS_FLOW) },
  {
    name: 'mark a document notice handled?',
    route: '/flows/:flow/notices/:noticeId{[0-9]+}/resolve',
    path: (ids) => paths.resolveNotice(EXCHANGE_FLOW, ids.noticeId),
  },
  { name: 'sign-in', route: '/login', path: () => paths.login(), signedOut: true },
  { name: 'a path that is no page', route: null, path: () => '/заявки', status: 404 },
];

/** GET routes that answer no page, and what they answer instead. */
export const NOT_PAGES: Readonly<Record<string, string>> = {
  '/assets/:name': 'the stylesheet, the scripts and the icon',
  '/mapping/schema.json': 'the JSON Schema the mapping editor completes from',
  '/flows/:flow/files/:fileId{[0-9]+}/:report{errors\\.(?:json|csv)}': 'a file’s report, downloaded',
};

const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');
/** The name 1C gives an export by default is long; the tables must fit it. */
const LONG_NAME = 'Выгрузка заявок на закупку из 1С за период с 01.06.2026 по 30.06.2026 (отдел снабжения, склад №2).csv';

/** A purchase order from 1C with three problems, in the long words 1C's catalogues are written in. */
const BAD_ORDER: EdOrderInput = {
  number: 'ЗП-000503',
  inn: '7707083894',
  orgName: 'Общество с ограниченной ответственностью «Торгово-производственная компания «Ромашка-Снабжение»»',
  lines: [
    { name: 'Бумага офисная для лазерной печати SvetoCopy Classic A4 80г/м² 500 листов белизна 146% CIE', quantity: 'двадцать' },
    { name: 'Картридж лазерный HP CF259X (59X) повышенной ёмкости для LaserJet Pro M404/M428', quantity: '2', unit: '', unitCode: '' },
  ],
};

const EXCHANGE_YAML = `
  - name: ${EXCHANGE_FLOW}
    kind: requests
    inbox: {dir}/exchange
    mapping: {repo}/config/mappings/enterprisedata-orders.yaml
    results: {dir}/import-1c
    enterpriseData: { node: ПК, peer: УТ }
    intake: { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 200, rejectPastDates: false }
`;

export interface EveryPage extends ConsoleDaemon {
  ids: EveryPageIds;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

async function getJson(url: string): Promise<Data> {
  const answer = await send(url, { headers: { accept: 'application/json' } });
  if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status} ${answer.body}`);
  return answer.json<Data>();
}

/** The sample with its requests renumbered (`ЗК-00010x` → `ЗК-000<n>0x`): new requests with the same content. */
function renumbered(file: string, n: number): Buffer {
  return Buffer.from(fs.readFileSync(file).toString('latin1').replaceAll('-00010', `-000${n}0`), 'latin1');
}

export async function withEveryPage<T>(options: { language: 'ru' | 'en' }, fn: (c: EveryPage) => Promise<T>): Promise<T> {
  return withConsoleDaemon({ language: options.language, extraFlows: EXCHANGE_YAML }, async (c) => fn({ ...c, ids: await giveADaysWork(c) }));
}

async function giveADaysWork({ url, inbox, dir, daemon }: ConsoleDaemon): Promise<EveryPageIds> {
  const sandbox = daemon.sandbox!;
  const files = async () => (await getJson(`${url}${paths.files(REQUESTS_FLOW)}`)).files as Data[];
  const settled = async (name: string) => (await files()).find((f) => f.originalName === name && f.state !== 'processing');

  // Three requests accepted, their orders confirmed.
  fs.copyFileSync(SAMPLE, path.join(inbox, 'requests-0612.csv'));
  await waitUntil(() => sandbox.requests().length === 3, 'three requests accepted', 20_000);
  for (const r of sandbox.requests()) sandbox.setOrderStatus(r.orderId, 'confirmed');
  await waitUntil(async () => (await getJson(`${url}/events`)).events.length === 3, 'three events');

  // Three dead letters; an operator retries one, and it dies again.
  sandbox.setFaults({ create: { status500: 1 } });
  fs.writeFileSync(path.join(inbox, LONG_NAME), renumbered(SAMPLE, 2));
  await waitUntil(async () => (await getJson(`${url}/attention`)).flows[0].dead.total === 3, 'three dead letters', 20_000);
  const session = await signIn(url, PASSWORD, 'Анна Сергеевна');
  const deadRequest = 'ЗК-000201';
  const { body, headers } = form({ _csrf: session.csrfToken });
  const retried = await send(`${url}${paths.retryRequest(REQUESTS_FLOW, deadRequest)}`, {
    method: 'POST',
    body,
    headers: { ...headers, cookie: session.cookie, origin: url, accept: 'application/json' },
  });
  if (retried.status !== 200) throw new Error(`retry: ${retried.status} ${retried.body}`);
  await waitUntil(async () => {
    const story = (await getJson(`${url}${paths.request(REQUESTS_FLOW, deadRequest)}`)).submissions[0];
    return story.state === 'dead' && story.timeline.filter((e: Data) => e.type === 'attempt').length === 4;
  }, 'the retried request dead again');
  sandbox.setFaults({});

  // A file with a problem (a wrong INN); its two other requests are accepted.
  fs.writeFileSync(path.join(inbox, 'requests-0613.csv'), renumbered(path.join(REPO, 'samples/broken/bad-inn.csv'), 6));
  const problemFile = await waitUntil(() => settled('requests-0613.csv'), 'the file with a problem taken');
  // A file rejected whole: a column is missing.
  fs.copyFileSync(path.join(REPO, 'samples/broken/missing-column.csv'), path.join(inbox, 'requests-0614.csv'));
  const rejectedFile = await waitUntil(() => settled('requests-0614.csv'), 'the broken file rejected');

  // 1C's exchange: its settings, answered; then a message with two purchase orders, accepted.
  const exchange = path.join(dir, 'exchange');
  fs.mkdirSync(exchange, { recursive: true });
  const peerMessage = path.join(exchange, 'Message_УТ_ПК.xml');
  fs.copyFileSync(path.join(REPO, 'samples/enterprisedata/settings/Message_УТ_ПК.xml'), peerMessage);
  await waitUntil(() => !fs.existsSync(peerMessage) && fs.existsSync(path.join(exchange, 'Message_ПК_УТ.xml')), 'our settings for 1C', 20_000);
  fs.copyFileSync(path.join(REPO, 'samples/enterprisedata/data/Message_УТ_ПК.xml'), peerMessage);
  await waitUntil(() => sandbox.requests().some((r) => r.externalId.startsWith('ЗП-000502 ')), 'the purchase orders accepted', 20_000);
  await waitUntil(() => sandbox.requests().length === 7, 'every request accepted', 20_000);
  // 1C's next message: an order the platform cannot take (a wrong INN, a quantity in words, a line without its unit).
  await waitUntil(() => !fs.existsSync(peerMessage), '1C’s message taken');
  // Our acknowledgement of it is written after its requests are released (and after the store's
  // fsync): until then the folder still holds our settings, message 0.
  const received = await waitUntil(
    () => {
      const ourReply = fs.readFileSync(path.join(exchange, 'Message_ПК_УТ.xml'), 'utf8');
      const no = Number(/<msg:MessageNo>(\d+)</.exec(ourReply)?.[1] ?? 0);
      return no >= 1 ? no : null;
    },
    'our acknowledgement of 1C’s message',
    20_000,
  );
  fs.writeFileSync(peerMessage, edMessage({ version: '1.8', no: 2, received, body: [edOrder('1.8', BAD_ORDER)] }));
  const exchangeFiles = async () => (await getJson(`${url}${paths.files(EXCHANGE_FLOW)}`)).files as Data[];
  const badMessage = await waitUntil(
    async () => (await exchangeFiles()).find((f) => f.problemCount > 0 && f.state !== 'processing'),
    '1C’s second message taken, with its problems',
  );
  // 1C's third message: an order changed after it was sent, another unposted: two notices for a person.
  await waitUntil(() => !fs.existsSync(peerMessage), '1C’s second message taken from the folder');
  const sent = fs.readFileSync(path.join(REPO, 'samples/enterprisedata/data/Message_УТ_ПК.xml'), 'utf8');
  const changedOrder = /<Документ\.ЗаказПоставщику>[\s\S]*?<\/Документ\.ЗаказПоставщику>/
    .exec(sent)![0]
    .replace('<Количество>20</Количество>', '<Количество>25</Количество>');
  fs.writeFileSync(peerMessage, edMessage({ version: '1.8', no: 3, received, body: [changedOrder, edWithdrawal(EXCHANGE_WITHDRAWN_REF)] }));
  // With the problem of the second message's order, three notices.
  const notices = await waitUntil(
    async () => {
      const documents = ((await getJson(`${url}/attention`)).flows as Data[]).find((f) => f.flow === EXCHANGE_FLOW)!.documents;
      return documents.total === 3 ? (documents.rows as Data[]) : null;
    },
    'the three document notices',
    20_000,
  );
  const noticeId = notices.find((notice) => notice.kind === 'edited')!.id as number;

  // A message in the exchange folder for other codes: named on the exchange and attention pages.
  fs.writeFileSync(path.join(exchange, 'Message_УТ_XX.xml'), edMessage({ to: 'XX' }));
  await waitUntil(
    async () => ((await getJson(`${url}${paths.exchange(EXCHANGE_FLOW)}`)).strayMessages as Data[]).length === 1,
    'the message for other codes named',
    20_000,
  );

  const orderId = sandbox.requests().find((r) => r.externalId === 'ЗК-000102')!.orderId;
  // The store may say archived a moment before the file is in archive/.
  const sampleOf = async (flow: string, fileId: number) =>
    (
      await waitUntil(
        async () => ((await getJson(`${url}${paths.mapping(flow)}`)).samples as Data[]).find((s) => String(s.name).startsWith(`${fileId}-`)),
        `file ${fileId} of ${flow} in its archive`,
      )
    ).id as string;
  return {
    deadRequest,
    acceptedRequest: 'ЗК-000102',
    orderId,
    exchangeRequest: 'ЗП-000501 6f1c2a4e-8b3d-11ee-b962-0242ac120002',
    noticeId,
    problemFileId: problemFile.id,
    rejectedFileId: rejectedFile.id,
    problemSampleId: await sampleOf(REQUESTS_FLOW, problemFile.id),
    exchangeProblemFileId: badMessage.id,
    exchangeProblemSampleId: await sampleOf(EXCHANGE_FLOW, badMessage.id),
  };
}

/**
 * Open every page of `CONSOLE_PAGES` in a 1,400 × 900 window, signed in as an operator (or not, for
 * the sign-in page), wait until its scripts are done, and hand it to `check`.
 */
export async function walkEveryPage(
  open: () => Promise<{ context: BrowserContext; page: Page }>,
  c: EveryPage,
  check: (page: Page, entry: ConsolePage, address: string) => Promise<void>,
): Promise<void> {
  const signedOut = await open();
  const signedIn = await open();
  for (const { page } of [signedOut, signedIn]) await page.setViewportSize({ width: 1400, height: 900 });
  await signedIn.page.goto(`${c.url}${paths.login()}`);
  await signedIn.page.fill('input[name=name]', 'Анна Сергеевна');
  await signedIn.page.fill('input[name=password]', PASSWORD);
  await signedIn.page.click('form.stack button[type=submit]');
  await signedIn.page.waitForURL(`${c.url}/`);

  for (const entry of CONSOLE_PAGES) {
    const { page } = entry.signedOut ? signedOut : signedIn;
    const address = entry.path(c.ids);
    const response = await page.goto(`${c.url}${address}`);
    expect(response?.status(), `${entry.name} (${address})`).toBe(entry.status ?? 200);
    if (entry.route === '/mapping') await mappingReady(page);
    await check(page, entry, address);
  }
}

/** The mapping page's scripts have run: the preview follows the editor, which holds the flow's schema. */
async function mappingReady(page: Page): Promise<void> {
  await waitUntil(async () => (await page.getAttribute('html', 'data-studio')) === 'ready', 'the mapping page’s script');
  await waitUntil(async () => (await page.getAttribute('html', 'data-editor')) === 'ready', 'the editor with its schema');
}

/** What a person reads on the page: its title and its text as shown (hidden parts left out). */
export async function pageText(page: Page): Promise<string> {
  return `${await page.title()}\n${await page.innerText('body')}`;
}
