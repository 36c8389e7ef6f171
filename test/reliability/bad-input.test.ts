/**
 * Bad input: a generated corpus of broken files in the inbox and broken webhooks at the listener.
 * The daemon never crashes (same process, `/healthz` 200), every broken file lands in `rejected/`
 * with its `.errors.json` report, nothing reaches the platform, and no broken webhook gets a 5xx.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import iconv from 'iconv-lite';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { REQUEST_HEADER, dropFile, requestFile, requestRows } from '../helpers/reliability/request-files.js';
import { SECRETS, filesIn, findSecrets, prepareDaemon } from '../helpers/reliability/setup.js';
import { waitUntil } from '../helpers/wait-until.js';
import { signed, statusEvent } from '../helpers/reliability/webhook-sender.js';

const header1251 = iconv.encode(`${REQUEST_HEADER.join(';')}\r\n`, 'win1251');

/** The corpus: original name → bytes (the symlink is made apart). Each is broken in one way. */
function brokenFiles(): [string, Buffer][] {
  const utf8Request = Buffer.from(`${REQUEST_HEADER.join(';')}\r\n${requestRows('BAD', 1)[0]!.join(';')}\r\n`, 'utf8');
  // Cut inside the two-byte "О" of "ООО": a truncated UTF-8 sequence at the end.
  const cut = utf8Request.indexOf(Buffer.from('ООО', 'utf8')) + 1;
  return [
    ['random-bytes.csv', crypto.randomBytes(256 * 1024)],
    ['truncated-utf8.csv', utf8Request.subarray(0, cut)],
    ['wrong-encoding.csv', utf8Request],
    ['long-line.csv', Buffer.concat([header1251, Buffer.from(`${'x'.repeat(1024 * 1024)}\r\n`, 'latin1')])],
    [
      'unbalanced-quotes.csv',
      Buffer.concat([header1251, iconv.encode(`ЗК-1;7707083893;"ООО Ромашка;Иванов;+7;a@b.ru;Москва;ул. 1;15.03.2031;;1;Бумага;5;шт;\r\n`, 'win1251')]),
    ],
    ['empty.csv', Buffer.alloc(0)],
    ['bad..name.csv', requestFile('DOTS', 0, 1)],
    ['binary.json', crypto.randomBytes(4096)],
  ];
}

/** Broken webhooks: what to send and the answer (never a 5xx). */
function brokenWebhooks(): { what: string; contentType: string; body: Buffer | string; signature?: string; expect: number }[] {
  const good = statusEvent(1, 'EVT-000001');
  const sign = (b: string) => signed(SECRETS.webhookSecret, b);
  const garbage = crypto.randomBytes(2048);
  return [
    { what: 'garbage, unsigned', contentType: 'application/json', body: garbage, expect: 401 },
    {
      what: 'garbage, signed',
      contentType: 'application/json',
      body: garbage,
      signature: signed(SECRETS.webhookSecret, garbage.toString('latin1')),
      expect: 401,
    },
    { what: 'not JSON, signed', contentType: 'application/json', body: '{"eventId": "EVT-', signature: sign('{"eventId": "EVT-'), expect: 400 },
    { what: 'huge (2 MiB)', contentType: 'application/json', body: `{"pad":"${'a'.repeat(2 * 1024 * 1024)}"}`, expect: 413 },
    { what: 'wrong media type', contentType: 'text/plain', body: good, signature: sign(good), expect: 415 },
    { what: 'no signature', contentType: 'application/json; charset=utf-8', body: good, expect: 401 },
    { what: 'empty signature', contentType: 'application/json; charset=utf-8', body: good, signature: '', expect: 401 },
    { what: 'JSON array, signed', contentType: 'application/json', body: '[1,2,3]', signature: sign('[1,2,3]'), expect: 400 },
    {
      what: 'wrong field types, signed',
      contentType: 'application/json',
      body: '{"eventId":42,"eventType":[],"eventDate":"yesterday"}',
      signature: sign('{"eventId":42,"eventType":[],"eventDate":"yesterday"}'),
      expect: 400,
    },
    {
      what: 'status change without order, signed',
      contentType: 'application/json',
      body: '{"eventId":"EVT-000009","eventType":"order.status.changed","eventDate":"2026-01-01T00:00:00+00:00"}',
      signature: sign('{"eventId":"EVT-000009","eventType":"order.status.changed","eventDate":"2026-01-01T00:00:00+00:00"}'),
      expect: 400,
    },
  ];
}

/** A request that announces a body and never finishes it: the listener must drop it, not die. */
async function sendTruncatedRequest(port: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write('POST /webhooks/service HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"eventId":');
      setTimeout(() => socket.destroy(), 100);
    });
    socket.once('close', () => resolve());
    socket.once('error', () => resolve());
  });
}

/** Where things are, and the daemon's last log lines: what a failing wait needs to be understood. */
function describeFolders(inbox: string, logDir: string): string {
  const tail = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(-15).join('\n') : '(none)');
  return [
    `inbox: ${JSON.stringify(filesIn(inbox))}`,
    `processing: ${JSON.stringify(filesIn(path.join(inbox, 'processing')))}`,
    `rejected: ${JSON.stringify(filesIn(path.join(inbox, 'rejected')))}`,
    `stderr:\n${tail(path.join(logDir, 'daemon.stderr.log'))}`,
    `stdout:\n${tail(path.join(logDir, 'daemon.stdout.log'))}`,
  ].join('\n');
}

describe('reliability: bad input', () => {
  it('rejects every broken file with a report and answers every broken webhook without crashing', async () => {
    const started = Date.now();
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url, { intake: { emptyFileTimeoutMs: 1_500 } });
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          const corpus = brokenFiles();
          for (const [name, bytes] of corpus) dropFile(layout.inbox, name, bytes);
          // A symlink to a perfectly good request file outside the inbox: it must not be read.
          const outside = path.join(root, 'outside.csv');
          fs.writeFileSync(outside, requestFile('LINK', 0, 1));
          fs.symlinkSync(outside, path.join(layout.inbox, 'link.csv'));
          const expected = [...corpus.map(([name]) => name), 'link.csv'];

          const webhookAnswers: { what: string; status: number }[] = [];
          for (const hook of brokenWebhooks()) {
            const headers: Record<string, string> = { 'content-type': hook.contentType };
            if (hook.signature !== undefined) headers['x-service-signature'] = hook.signature;
            const res = await request(`${daemon.webhookBase}/webhooks/service`, { method: 'POST', headers, body: hook.body }).catch(() => null);
            if (res) await res.body.dump();
            webhookAnswers.push({ what: hook.what, status: res?.statusCode ?? -1 });
          }
          for (let i = 0; i < 5; i += 1) await sendTruncatedRequest(layout.webhookPort);
          const get = await request(`${daemon.webhookBase}/webhooks/service`);
          await get.body.dump();
          webhookAnswers.push({ what: 'GET', status: get.statusCode });
          expect(webhookAnswers).toEqual([...brokenWebhooks().map((h) => ({ what: h.what, status: h.expect })), { what: 'GET', status: 405 }]);

          const rejectedDir = path.join(layout.inbox, 'rejected');
          const landed = (name: string) => filesIn(rejectedDir).find((f) => f.endsWith(`-${name}`));
          await waitUntil(
            () => expected.every((name) => landed(name) !== undefined && fs.existsSync(path.join(rejectedDir, `${landed(name)!}.errors.json`))),
            'every broken file in rejected/ with its report',
            { timeoutMs: 120_000, intervalMs: 200 },
          ).catch((error: unknown) => {
            throw new Error(`${(error as Error).message}\n${describeFolders(layout.inbox, layout.logDir)}`);
          });

          const reports = Object.fromEntries(
            expected.map((name) => {
              const report = JSON.parse(fs.readFileSync(path.join(rejectedDir, `${landed(name)!}.errors.json`), 'utf8')) as { problems: { code: string }[] };
              return [name, [...new Set(report.problems.map((p) => p.code))]];
            }),
          );
          for (const [name, codes] of Object.entries(reports)) expect(codes.length, `problems reported for ${name}`).toBeGreaterThan(0);
          expect(reports['empty.csv']).toEqual(['FILE_EMPTY']);
          expect(reports['link.csv']).toEqual(['FILE_NOT_REGULAR']);
          expect(reports['bad..name.csv']).toEqual(['FILE_NOT_REGULAR']);

          // Still the same process, still healthy; nothing reached the platform.
          expect(daemon.alive()).toBe(true);
          expect(daemon.unexpectedExits).toBe(0);
          expect(daemon.starts).toBe(1);
          const health = await request(`${daemon.webhookBase}/healthz`);
          await health.body.dump();
          expect(health.statusCode).toBe(200);
          expect(sandbox.calls()).toEqual([]);
          expect(filesIn(layout.inbox)).toEqual([]);
          expect(filesIn(path.join(layout.inbox, 'processing'))).toEqual([]);
          expect(fs.readFileSync(outside, 'utf8')).toContain('LINK-00000');
          expect(await daemon.stop()).toBe(0);

          expect(findSecrets([root], Object.values(SECRETS), [layout.configFile])).toEqual([]);
          console.info(
            `[reliability bad-input] files=${expected.length} webhooks=${webhookAnswers.length + 5} codes=${JSON.stringify(reports)} durationMs=${Date.now() - started}`,
          );
        });
      });
    });
  });
  // A text file of 50 MB under a request header (a log renamed .csv): ~580,000 rows without the
  // columns. It must be rejected with a report like any other file, within a bounded time, and the
  // daemon must stay up. See docs/reliability.md: this fails today (unbounded problem list).
  it('rejects a 50 MB file of bad rows with a report, and stays up', async () => {
    const started = Date.now();
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url);
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          const lorem = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt\r\n';
          dropFile(
            layout.inbox,
            'huge-50mb.csv',
            Buffer.concat([header1251, Buffer.from(lorem.repeat(Math.ceil((50 * 1024 * 1024) / lorem.length)), 'latin1')]),
          );
          const rejectedDir = path.join(layout.inbox, 'rejected');
          const landed = () => filesIn(rejectedDir).find((f) => f.endsWith('-huge-50mb.csv'));
          await waitUntil(
            () => landed() !== undefined && fs.existsSync(path.join(rejectedDir, `${landed()!}.errors.json`)),
            'the 50 MB file in rejected/ with its report',
            { timeoutMs: 90_000, intervalMs: 500 },
          ).catch((error: unknown) => {
            throw new Error(`${(error as Error).message}\n${describeFolders(layout.inbox, layout.logDir)}`);
          });
          expect(daemon.alive()).toBe(true);
          expect(daemon.unexpectedExits).toBe(0);
          const health = await request(`${daemon.webhookBase}/healthz`);
          await health.body.dump();
          expect(health.statusCode).toBe(200);
          expect(sandbox.calls()).toEqual([]);
          expect(filesIn(path.join(layout.inbox, 'processing'))).toEqual([]);
          expect(await daemon.stop()).toBe(0);
          expect(findSecrets([root], Object.values(SECRETS), [layout.configFile])).toEqual([]);
          console.info(`[reliability bad-input 50 MB] durationMs=${Date.now() - started}`);
        });
      });
    });
  });
});
