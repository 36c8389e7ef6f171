/**
 * Console features that work but that no other test asserted: the overview's last error, oldest
 * pending age, webhook refusals and exporter channels; search by order id; a paused flow on
 * /attention and its resume; the `console action` log line; the files filter and the JSON report.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { REPO } from '../../helpers/with-daemon.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { send, signIn } from '../../helpers/console/http.js';
import { PASSWORD, withConsoleDaemon } from '../../helpers/console/with-console-daemon.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

const JSON_ACCEPT = { accept: 'application/json' };
const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');

async function getJson(url: string): Promise<Data> {
  const answer = await send(url, { headers: JSON_ACCEPT });
  expect(answer.status, url).toBe(200);
  return answer.json<Data>();
}

/** A logger whose JSON lines land in `lines`. */
function capturedLogger(): { lines: Record<string, unknown>[]; logger: ReturnType<typeof createLogger> } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination: sink }) };
}

describe('the overview (/)', () => {
  it('names a flow’s last error after a request is dead-lettered', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      expect((await getJson(`${url}/`)).flows[0].lastError).toBeNull();
      daemon.sandbox!.setFaults({ create: { status500: 1 } });
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(async () => (await getJson(`${url}/`)).flows[0].counts.dead === 3, 'three dead letters');

      const flow = (await getJson(`${url}/`)).flows[0];
      expect(flow.lastError).toMatchObject({
        externalId: expect.stringMatching(/^ЗК-00010[123]$/),
        code: 'SUBMISSION_DEAD',
        message: expect.stringContaining('Gave up after 2 attempt(s)'),
      });
      expect(Date.parse(flow.lastError.at)).not.toBeNaN();
      const html = (await send(`${url}/`)).body;
      expect(html).toContain(flow.lastError.code);
      expect(html).toContain(flow.lastError.externalId);
    });
  });

  it('gives the oldest pending age while the platform holds requests, and null once they are through', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      expect((await getJson(`${url}/`)).flows[0].oldestPendingAgeMs).toBeNull();
      daemon.sandbox!.setFaults({ create: { latencyMs: 3_000 } });
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(async () => (await getJson(`${url}/`)).flows[0].oldestPendingAgeMs !== null, 'something pending');
      const first = (await getJson(`${url}/`)).flows[0];
      expect((first.counts.pending ?? 0) + (first.counts.in_flight ?? 0)).toBeGreaterThan(0);
      expect(first.oldestPendingAgeMs).toBeGreaterThanOrEqual(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const later = (await getJson(`${url}/`)).flows[0];
      expect(later.oldestPendingAgeMs).toBeGreaterThanOrEqual(first.oldestPendingAgeMs + 200);
      daemon.sandbox!.setFaults({});
      await waitUntil(async () => (await getJson(`${url}/`)).flows[0].counts.accepted === 3, 'three accepted', 20_000);
      expect((await getJson(`${url}/`)).flows[0].oldestPendingAgeMs).toBeNull();
    });
  });

  it('counts a webhook refused for its signature by its code since start', async () => {
    await withConsoleDaemon({}, async ({ url, daemon }) => {
      expect((await getJson(`${url}/`)).webhook.refusedSinceStart).toEqual({});
      const body = JSON.stringify({
        eventId: 'evt-1',
        type: 'order.status_changed',
        orderId: 'ORD-1',
        status: 'confirmed',
        eventDate: new Date().toISOString(),
      });
      const refused = await send(daemon.urls.webhook!, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-service-signature': 'v1,bm90LWEtc2lnbmF0dXJl' },
      });
      expect(refused.status).toBe(401);
      const overview = await getJson(`${url}/`);
      expect(overview.webhook.refusedSinceStart).toEqual({ WEBHOOK_SIGNATURE_INVALID: 1 });
      expect(overview.webhook.eventsToday).toBe(0);
      expect((await send(`${url}/`)).body).toContain('WEBHOOK_SIGNATURE_INVALID');
    });
  });

  it('shows each exporter channel’s pending rows and last file once an acknowledgement is written', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, dir }) => {
      const before = (await getJson(`${url}/`)).exporter.channels;
      expect(before).toEqual([
        { channel: 'status', pending: 0, oldestPendingAgeMs: null, lastFile: null },
        { channel: 'ack:requests', pending: 0, oldestPendingAgeMs: null, lastFile: null },
      ]);
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(async () => {
        const channels = (await getJson(`${url}/`)).exporter.channels;
        return channels[1].lastFile !== null && channels[1].pending === 0 && (await getJson(`${url}/`)).flows[0].counts.accepted === 3;
      }, 'the acknowledgements written');
      await waitUntil(async () => (await getJson(`${url}/`)).exporter.channels[1].pending === 0, 'nothing left to export');
      const [status, ack] = (await getJson(`${url}/`)).exporter.channels;
      expect(status).toMatchObject({ channel: 'status', pending: 0, lastFile: null });
      expect(ack).toMatchObject({ channel: 'ack:requests', pending: 0, oldestPendingAgeMs: null, lastFile: { fileName: expect.any(String) } });
      expect(Date.parse(ack.lastFile.writtenAt)).not.toBeNaN();
      expect(fs.readdirSync(path.join(dir, 'import'))).toContain(ack.lastFile.fileName);
      expect((await send(`${url}/`)).body).toContain(ack.lastFile.fileName);
    });
  });
});

describe('search by order id', () => {
  it('finds a confirmation by its order id (prefix and exact)', async () => {
    const confirmations = `
  - name: confirmations
    kind: confirmations
    inbox: {dir}/confirmations
    mapping: {repo}/config/mappings/supplier-confirmations.yaml
    results: {dir}/confirmation-results
    token: sandbox-supplier-token
    intake: { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 200, rejectPastDates: false }`;
    await withConsoleDaemon({ extraFlows: confirmations }, async ({ url, inbox, dir, daemon }) => {
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(() => daemon.sandbox!.orders().length === 3, 'three orders at the platform');
      fs.mkdirSync(path.join(dir, 'confirmations'), { recursive: true });
      fs.copyFileSync(path.join(REPO, 'samples/supplier-confirmation.csv'), path.join(dir, 'confirmations/confirm.csv'));
      await waitUntil(() => daemon.sandbox!.order('ORD-2026-000002')!.status === 'confirmed', 'ORD-2026-000002 confirmed');

      const exact = await getJson(`${url}/flows/confirmations/requests?q=ORD-2026-000002`);
      expect(exact.submissions).toHaveLength(1);
      expect(exact.submissions[0]).toMatchObject({ orderId: 'ORD-2026-000002' });
      const prefix = await getJson(`${url}/flows/confirmations/requests?q=ORD-2026-00000`);
      expect(prefix.submissions.map((s: { orderId: string }) => s.orderId).sort()).toEqual(['ORD-2026-000001', 'ORD-2026-000002']);
      // Scoped to the flow: the requests flow has no submission with an order id.
      expect((await getJson(`${url}/flows/requests/requests?q=ORD-2026-000002`)).submissions).toEqual([]);
      expect((await send(`${url}/flows/confirmations/requests?q=ORD-2026-000002`)).body).toContain('ORD-2026-000002');
    });
  });
});

describe('a paused flow', () => {
  it('is on /attention with its reason; “resume now” through the console sends it again, audited ok and logged', async () => {
    // The platform refuses the daemon's token; later the same address accepts it (a token fixed at the platform).
    const refusing = await startSandbox({ token: 'another-token' });
    const { port } = refusing;
    let accepting: Awaited<ReturnType<typeof startSandbox>> | null = null;
    const { lines, logger } = capturedLogger();
    try {
      // Probes once in ten minutes: only the operator's resume sends anything during the test.
      await withConsoleDaemon({ platformUrl: refusing.url, probeIntervalMs: 600_000, logger }, async ({ url, inbox }) => {
        fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
        await waitUntil(async () => (await getJson(`${url}/attention`)).flows[0].gate?.mode === 'paused', 'the flow paused');
        const attention = await getJson(`${url}/attention`);
        expect(attention.total).toBeGreaterThanOrEqual(1);
        expect(attention.flows[0]).toMatchObject({ flow: 'requests', gate: { mode: 'paused' } });
        const html = (await send(`${url}/attention`)).body;
        expect(html).toContain('paused: the platform refuses the token');
        expect(html).toContain('/flows/requests/resume');
        expect((await getJson(`${url}/`)).flows[0].gate.mode).toBe('paused');
        expect(refusing.calls().every((c) => c.status === 401)).toBe(true);

        await refusing.stop();
        accepting = await startSandbox({ port, token: 'console-test-token' });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(accepting.calls()).toHaveLength(0);

        const { cookie, csrfToken } = await signIn(url, PASSWORD, 'Анна');
        const resume = await send(`${url}/flows/requests/resume`, {
          method: 'POST',
          headers: { cookie, 'x-csrf-token': csrfToken, origin: url, ...JSON_ACCEPT },
        });
        expect(resume.status).toBe(200);
        expect(resume.json()).toMatchObject({
          audit: { actor: 'Анна', action: 'resume-flow', flow: 'requests', target: 'requests', result: 'ok', detail: 'a probe is sent now' },
        });
        const sandbox = accepting;
        await waitUntil(() => sandbox.requests().length === 3, 'three requests accepted after the resume', 20_000);
        await waitUntil(async () => (await getJson(`${url}/attention`)).flows[0].gate === null, 'the flow sending again');
        expect((await getJson(`${url}/`)).flows[0].gate.mode).toBe('closed');
        expect((await getJson(`${url}/attention`)).total).toBe(0);
        const audit = await getJson(`${url}/audit`);
        expect(audit.entries).toMatchObject([{ action: 'resume-flow', result: 'ok', actor: 'Анна' }]);
      });
    } finally {
      await refusing.stop();
      await (accepting as { stop(): Promise<void> } | null)?.stop();
    }
    expect(lines.filter((l) => l.msg === 'console action')).toMatchObject([
      { level: 'info', action: 'resume-flow', result: 'ok', actor: 'Анна', flow: 'requests', target: 'requests' },
    ]);
  });
});

describe('the log', () => {
  it('has a “console action” line per action with its name and result (a failed one as a warning)', async () => {
    const { lines, logger } = capturedLogger();
    await withConsoleDaemon({ logger }, async ({ url, inbox, daemon }) => {
      daemon.sandbox!.setFaults({ create: { status500: 1 } });
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(async () => (await getJson(`${url}/attention`)).total === 3, 'three dead letters');
      daemon.sandbox!.setFaults({});
      const { cookie, csrfToken } = await signIn(url, PASSWORD, 'Борис');
      const post = (p: string) => send(`${url}${p}`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, ...JSON_ACCEPT } });
      expect((await post(`/flows/requests/requests/${encodeURIComponent('ЗК-000101')}/retry`)).status).toBe(200);
      expect((await post('/flows/requests/resume')).status).toBe(200);
      expect((await post('/flows/requests/files/1/retake')).status).toBe(409);
    });
    const actions = lines.filter((l) => l.msg === 'console action' || l.msg === 'console action failed');
    expect(actions).toMatchObject([
      { level: 'info', msg: 'console action', action: 'retry-submission', result: 'ok', actor: 'Борис', flow: 'requests', target: 'ЗК-000101' },
      { level: 'info', msg: 'console action', action: 'resume-flow', result: 'nothing', actor: 'Борис' },
      { level: 'warn', msg: 'console action failed', action: 'retake-file', result: 'failed', code: 'CONSOLE_ACTION_FAILED', target: '1' },
    ]);
    for (const line of actions) expect(line.audit).toEqual(expect.any(Number));
  });
});

describe('the files page', () => {
  it('filters by ?state=rejected, and a rejected file’s errors.json link downloads its report', async () => {
    await withConsoleDaemon({}, async ({ url, inbox }) => {
      fs.copyFileSync(SAMPLE, path.join(inbox, 'good.csv'));
      await waitUntil(async () => (await getJson(`${url}/flows/requests/files`)).files.length === 1, 'the good file taken');
      fs.copyFileSync(path.join(REPO, 'samples/broken/missing-column.csv'), path.join(inbox, 'broken.csv'));
      await waitUntil(
        async () => (await getJson(`${url}/flows/requests/files`)).files.some((f: { state: string }) => f.state === 'rejected'),
        'the broken file rejected',
      );
      await waitUntil(
        async () => (await getJson(`${url}/flows/requests/files`)).files.every((f: { state: string }) => f.state !== 'taken'),
        'both files settled',
      );

      const all = await getJson(`${url}/flows/requests/files`);
      expect(all.files.map((f: { originalName: string }) => f.originalName).sort()).toEqual(['broken.csv', 'good.csv']);
      const rejected = await getJson(`${url}/flows/requests/files?state=rejected`);
      expect(rejected.state).toBe('rejected');
      expect(rejected.files).toMatchObject([{ originalName: 'broken.csv', state: 'rejected' }]);
      const archived = await getJson(`${url}/flows/requests/files?state=archived`);
      expect(archived.files).toMatchObject([{ originalName: 'good.csv', state: 'archived' }]);
      const rejectedHtml = (await send(`${url}/flows/requests/files?state=rejected`)).body;
      expect(rejectedHtml).toContain('broken.csv');
      expect(rejectedHtml).not.toContain('good.csv');

      const fileId = rejected.files[0].id as number;
      const file = await getJson(`${url}/flows/requests/files/${fileId}`);
      expect(file.reports).toEqual({ json: `/flows/requests/files/${fileId}/errors.json`, csv: `/flows/requests/files/${fileId}/errors.csv` });
      expect(file.problems).toMatchObject([{ code: 'COLUMN_MISSING' }]);
      expect((await send(`${url}/flows/requests/files/${fileId}`)).body).toContain(`href="/flows/requests/files/${fileId}/errors.json"`);

      const report = await send(`${url}${file.reports.json}`);
      expect(report.status).toBe(200);
      expect(report.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(report.headers['content-disposition']).toContain(`filename="${fileId}-report.errors.json"`);
      const body = report.json<Data>();
      expect(body).toMatchObject({
        file: expect.stringContaining('broken.csv'),
        problems: [{ code: 'COLUMN_MISSING', message: expect.stringContaining('Количество') }],
      });
      expect(body.sha256).toMatch(/^[0-9a-f]{64}$/);

      const good = archived.files[0].id as number;
      expect((await send(`${url}/flows/requests/files/${good}/errors.json`)).status).toBe(404);
    });
  });
});
