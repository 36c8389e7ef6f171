/**
 * The bad-input corpus, part two: a hostile user of the ERP server. Anyone in the ERP's group can
 * write the exchange folders, so they plant symlinks and FIFOs where the daemon writes, drop files
 * with names and ids built to break derived names, put Excel formulas into the data, start a second
 * daemon on the same state, and send the listener what no HTTP client would. The built daemon, as a
 * child process, must write every acknowledgement, follow no planted link, block on no FIFO, and
 * keep going.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import iconv from 'iconv-lite';
import { request } from 'undici';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { REQUEST_HEADER, dropFile, requestFile, requestRows } from '../helpers/reliability/request-files.js';
import { SECRETS, archivedFiles, filesIn, findSecrets, prepareDaemon, rejectedFiles } from '../helpers/reliability/setup.js';
import { waitUntil } from '../helpers/wait-until.js';
import { signed } from '../helpers/reliability/webhook-sender.js';

const CHINESE_ID = '中'.repeat(100);
/** A name of 246 bytes: derived names (`processing/<id>-<name>`, reports) would pass 255. */
const LONG_NAME = `${'Я'.repeat(121)}.csv`;

function csvFile(rows: string[][]): Buffer {
  const cell = (v: string) => (/[;"\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return iconv.encode(`${[REQUEST_HEADER as readonly string[], ...rows].map((r) => r.map(cell).join(';')).join('\r\n')}\r\n`, 'win1251');
}

function jsonRequests(ids: string[]): string {
  const requests = ids.map((number) => ({
    number,
    buyer: { inn: '7707083893', name: 'ООО Ромашка' },
    contact: { fullName: 'Иванов Иван', phone: '+7 495 000-00-00' },
    delivery: { city: 'Москва', address: 'ул. Ленина, 1', date: '2031-03-15' },
    lines: [{ line: '1', item: 'Бумага', qty: 5, uom: 'пачка' }],
  }));
  return JSON.stringify({ data: { requests } });
}

/** Send raw bytes to the listener and return the status line of the answer. */
function rawRequest(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.setTimeout(5_000, () => socket.destroy());
    socket.once('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.once('error', () => resolve(answer.split('\r\n')[0] ?? ''));
  });
}

describe('reliability: a hostile user of the exchange folders', () => {
  it('plants links, FIFOs, long names, formulas and a second daemon; every acknowledgement is still written', async () => {
    const started = Date.now();
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url);
        // A second flow reading JSON (UTF-8): the only way a Chinese externalId reaches the daemon.
        const config = YAML.parse(fs.readFileSync(layout.configFile, 'utf8')) as { flows: Record<string, unknown>[] };
        const jsonInbox = path.join(root, 'inbox-json');
        const jsonResults = path.join(root, 'results-json');
        fs.mkdirSync(jsonInbox, { recursive: true });
        config.flows.push({
          ...config.flows[0],
          name: 'json',
          inbox: jsonInbox,
          results: jsonResults,
          mapping: path.resolve('config/mappings/requests-json.yaml'),
        });
        fs.writeFileSync(layout.configFile, YAML.stringify(config));

        // Traps at the temp names the old writer used (`.<name>.tmp`, names and export ids are
        // predictable): symlinks to a canary and to the store itself, and FIFOs.
        const canary = path.join(root, 'canary.txt');
        fs.writeFileSync(canary, 'canary');
        const store = path.join(layout.stateDir, 'connector.sqlite');
        fs.mkdirSync(layout.results, { recursive: true });
        for (let id = 1; id <= 30; id += 1) {
          fs.symlinkSync(canary, path.join(layout.results, `.ack-HOSTILE-00001-${id}.csv.tmp`));
          fs.symlinkSync(store, path.join(layout.results, `.ack-HOSTILE-00003-${id}.csv.tmp`));
          execFileSync('mkfifo', [path.join(layout.results, `.ack-HOSTILE-00002-${id}.csv.tmp`)]);
        }

        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();

          // A second daemon on the same stateDir refuses to start and names the holder.
          const second = spawn(process.execPath, [path.resolve('dist/src/cli.js'), 'run', '--config', layout.configFile], {
            stdio: ['ignore', 'ignore', 'pipe'],
          });
          let secondErr = '';
          second.stderr.on('data', (c: Buffer) => (secondErr += c.toString('utf8')));
          const secondCode = await new Promise<number | null>((resolve) => second.once('exit', resolve));
          expect(secondCode).toBe(1);
          expect(secondErr).toContain('STATE_DIR_LOCKED');
          expect(secondErr).toContain(path.join(layout.stateDir, 'connector.lock'));

          const hostileRows = [1, 2, 3].flatMap((n) => requestRows('HOSTILE', n));
          dropFile(layout.inbox, 'hostile.csv', csvFile(hostileRows));
          dropFile(layout.inbox, LONG_NAME, requestFile('LONGNAME', 0, 1));
          // A formula as the externalId of a request with a bad INN, and a bell inside an externalId.
          const formula = requestRows('F', 1).map((r) => [`=HYPERLINK("http://evil.example","x")`, '7707083894', ...r.slice(2)]);
          dropFile(layout.inbox, 'formula.csv', csvFile(formula));
          const bell = requestRows('B', 1).map((r) => ['BELL\u0007-1', ...r.slice(1)]);
          dropFile(layout.inbox, 'control.csv', csvFile(bell));
          dropFile(jsonInbox, 'chinese.json', jsonRequests([CHINESE_ID, 'JSON-AFTER-1']));

          // The listener: an unparseable target, and a signed event with a line break in orderId.
          expect(await rawRequest(layout.webhookPort, 'POST //[/ HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
          const event = JSON.stringify({
            eventId: 'EVT-000777',
            eventType: 'order.status.changed',
            eventDate: '2026-06-12T10:00:00+03:00',
            orderId: 'ORD-2026-000001\r\nX',
            status: 'shipped',
          });
          const res = await request(`${daemon.webhookBase}/webhooks/service`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-service-signature': signed(SECRETS.webhookSecret, event) },
            body: event,
          });
          await res.body.dump();
          expect(res.statusCode).toBe(400);

          const accepted = () => new Set(sandbox.requests().map((r) => r.externalId));
          const expectedIds = ['HOSTILE-00001', 'HOSTILE-00002', 'HOSTILE-00003', 'LONGNAME-00000', CHINESE_ID, 'JSON-AFTER-1'];
          const ackFor = (folder: string, id: string) =>
            filesIn(folder).some((f) => f.startsWith(`ack-${id}`) || (id === CHINESE_ID && f.startsWith('ack-中')));
          await waitUntil(
            () =>
              expectedIds.every((id) => accepted().has(id)) &&
              ['HOSTILE-00001', 'HOSTILE-00002', 'HOSTILE-00003', 'LONGNAME-00000'].every((id) => ackFor(layout.results, id)) &&
              [CHINESE_ID, 'JSON-AFTER-1'].every((id) => ackFor(jsonResults, id)) &&
              rejectedFiles(layout.inbox).length === 2 &&
              // A rejected file's reports are written after its move, and a good file is archived
              // after its requests are released: wait for those too, not only for what came first.
              ['formula.csv.errors.csv', 'control.csv.errors.json'].every((suffix) =>
                filesIn(path.join(layout.inbox, 'rejected')).some((f) => f.endsWith(suffix)),
              ) &&
              archivedFiles(layout.inbox).length === 2 &&
              archivedFiles(jsonInbox).length === 1,
            'every request accepted and acknowledged, both bad files rejected with their reports, the good ones archived',
            { timeoutMs: 90_000, intervalMs: 200 },
          );

          // Nothing planted was followed or blocked on.
          expect(fs.readFileSync(canary, 'utf8')).toBe('canary');
          for (let id = 1; id <= 30; id += 1) {
            expect(fs.lstatSync(path.join(layout.results, `.ack-HOSTILE-00001-${id}.csv.tmp`)).isSymbolicLink()).toBe(true);
            expect(fs.lstatSync(path.join(layout.results, `.ack-HOSTILE-00002-${id}.csv.tmp`)).isFIFO()).toBe(true);
          }
          // Every derived name fits: the Chinese acknowledgement and the long inbox name.
          for (const name of [...filesIn(jsonResults), ...archivedFiles(layout.inbox).map((f) => path.basename(f))]) {
            expect(Buffer.byteLength(name), name).toBeLessThanOrEqual(255);
          }
          expect(archivedFiles(layout.inbox).length).toBe(2);
          expect(archivedFiles(jsonInbox).length).toBe(1);
          // Each request once.
          expect(sandbox.requests().length).toBe(expectedIds.length);

          // The formula is inert in the CSV report people open in Excel; the bell is refused.
          const rejected = path.join(layout.inbox, 'rejected');
          const formulaReport = filesIn(rejected).find((f) => f.endsWith('formula.csv.errors.csv'))!;
          expect(fs.readFileSync(path.join(rejected, formulaReport), 'utf8')).toContain(`'=HYPERLINK(`);
          const controlReport = filesIn(rejected).find((f) => f.endsWith('control.csv.errors.json'))!;
          const codes = (JSON.parse(fs.readFileSync(path.join(rejected, controlReport), 'utf8')) as { problems: { code: string; field: string }[] }).problems;
          expect(codes).toContainEqual(expect.objectContaining({ code: 'FIELD_INVALID', field: 'externalId' }));

          expect(daemon.alive()).toBe(true);
          expect(daemon.unexpectedExits).toBe(0);
          expect(await daemon.stop()).toBe(0);
          expect(findSecrets([root], Object.values(SECRETS), [layout.configFile])).toEqual([]);
          console.info(`[reliability hostile-folders] accepted=${sandbox.requests().length} durationMs=${Date.now() - started}`);
        });
      });
    });
  });
});
