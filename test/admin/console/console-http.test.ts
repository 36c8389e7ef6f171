/**
 * The console over plain HTTP (no browser): every page's JSON, the rules of who may look and act
 * (the loopback rule, Host, proxies, sessions, CSRF, Origin, the sign-in limit), the audit, and the
 * admin endpoints next to it, untouched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { REPO } from '../../helpers/with-daemon.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { form, send, signIn } from '../../helpers/console/http.js';
import { PASSWORD, withConsoleDaemon } from '../../helpers/console/with-console-daemon.js';

// The pages' JSON, read loosely: the assertions say what each must hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

const JSON_ACCEPT = { accept: 'application/json' };
const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');
const id = encodeURIComponent('ЗК-000101');

describe('console pages', () => {
  it('answer each page as HTML with a strict CSP and as JSON with the data it shows, next to /metrics, /healthz and /readyz', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(() => daemon.sandbox!.requests().length === 3, 'three requests accepted');
      const orderId = daemon.sandbox!.requests()[0]!.orderId;
      daemon.sandbox!.setOrderStatus(orderId, 'confirmed');
      await waitUntil(async () => (await send(`${url}/events`, { headers: JSON_ACCEPT })).json<{ events: unknown[] }>().events.length === 1, 'the event');
      // The platform has the requests before their 201s are recorded, and the file is archived after
      // its requests are released: wait until the store says so, which is what the pages show.
      await waitUntil(async () => {
        const flow = (await send(`${url}/`, { headers: JSON_ACCEPT })).json<Data>().flows[0];
        return flow.counts.accepted === 3 && flow.filesToday.archived === 1;
      }, 'three requests recorded accepted, the file archived');

      const page = await send(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.body).not.toMatch(/<script>|style="/);
      // The last 24 hours, drawn from what delivery and the listener recorded.
      expect(page.body).toContain('role="img" aria-label="Requests per hour, last 24 h: 3 accepted"');
      expect(page.body).toContain('role="img" aria-label="Webhook events per hour, last 24 h: 1 applied"');

      const overview = (await send(`${url}/`, { headers: JSON_ACCEPT })).json<Data>();
      expect(overview.flows[0]).toMatchObject({ name: 'requests', counts: { accepted: 3 }, filesToday: { archived: 1 }, gate: { mode: 'closed' } });
      expect(overview.webhook).toMatchObject({ eventsToday: 1, lastEvent: { orderId, status: 'confirmed' } });
      expect(overview.exporter.channels.map((c: { channel: string }) => c.channel)).toEqual(['status', 'ack:requests']);
      expect(overview.readiness).toEqual({ ready: true, reasons: [] });
      const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
      expect(overview.flows[0].lastDay.hours).toHaveLength(24);
      expect(sum(overview.flows[0].lastDay.series.accepted)).toBe(3);
      expect(sum(overview.webhook.lastDay.series.applied)).toBe(1);

      const search = (await send(`${url}/flows/requests/requests?q=${encodeURIComponent('ЗК-00010')}`, { headers: JSON_ACCEPT })).json<Data>();
      expect(search.submissions.map((s: { externalId: string }) => s.externalId)).toEqual(['ЗК-000101', 'ЗК-000102', 'ЗК-000103']);
      const byPlatformId = (await send(`${url}/flows/requests/requests?q=${search.submissions[1].platformId}`, { headers: JSON_ACCEPT })).json<Data>();
      expect(byPlatformId.submissions.map((s: { externalId: string }) => s.externalId)).toEqual(['ЗК-000102']);
      const byFile = (await send(`${url}/flows/requests/requests?q=quests.cs`, { headers: JSON_ACCEPT })).json<Data>();
      expect(byFile.files.map((f: { originalName: string }) => f.originalName)).toEqual(['requests.csv']);
      expect(byFile.submissions).toHaveLength(3);

      const story = (await send(`${url}/flows/requests/requests/${id}`, { headers: JSON_ACCEPT })).json<Data>();
      const attempt = story.submissions[0].timeline.find((e: { type: string }) => e.type === 'attempt');
      expect(attempt).toMatchObject({ number: 1, httpStatus: 201, outcome: 'accepted', answer: { externalId: 'ЗК-000101', status: 'accepted' } });
      expect(attempt.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(story.submissions[0].payload.externalId).toBe('ЗК-000101');

      const files = (await send(`${url}/flows/requests/files`, { headers: JSON_ACCEPT })).json<Data>();
      expect(files.files).toMatchObject([{ originalName: 'requests.csv', state: 'archived', requestCount: 3 }]);
      const file = (await send(`${url}/flows/requests/files/${files.files[0].id}`, { headers: JSON_ACCEPT })).json<Data>();
      expect(file).toMatchObject({ page: 'file', problems: [], reports: null, canRetake: false });
      expect(file.submissions).toHaveLength(3);

      const order = (await send(`${url}/orders/${orderId}`, { headers: JSON_ACCEPT })).json<Data>();
      expect(order).toMatchObject({ page: 'order', orderId, status: { status: 'confirmed' }, events: [{ status: 'confirmed', applied: true }] });
      expect((await send(`${url}/attention`, { headers: JSON_ACCEPT })).json()).toMatchObject({ page: 'attention', total: 0 });
      expect((await send(`${url}/audit`, { headers: JSON_ACCEPT })).json()).toEqual({ page: 'audit', entries: [] });

      expect((await send(`${url}/flows/nope/requests`, { headers: JSON_ACCEPT })).status).toBe(404);
      expect((await send(`${url}/flows/requests/requests/${encodeURIComponent('ЗК-999999')}`)).status).toBe(404);
      expect((await send(`${url}/orders/ORD-0`)).status).toBe(404);

      expect((await send(`${url}/metrics`)).body).toContain('connector_queue_depth{flow="requests",state="accepted"} 3');
      expect((await send(`${url}/healthz`)).status).toBe(200);
      expect((await send(`${url}/readyz`)).json()).toEqual({ ready: true, reasons: [] });
      expect((await send(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
    });
  });

  it('shows readiness with its reasons on / when not ready, as /readyz says it', async () => {
    await withConsoleDaemon({}, async ({ url, dir }) => {
      // The acknowledgements' folder becomes a file: nothing can be exported there.
      const folder = path.join(dir, 'import');
      fs.rmSync(folder, { recursive: true, force: true });
      fs.writeFileSync(folder, 'not a folder');

      const readyz = (await send(`${url}/readyz`)).json<Data>();
      expect(readyz.ready).toBe(false);
      expect(readyz.reasons).toEqual([`folder ${folder}: ENOTDIR`]);
      expect((await send(`${url}/`, { headers: JSON_ACCEPT })).json<Data>().readiness).toEqual(readyz);
      const page = await send(`${url}/`);
      expect(page.body).toContain('class="readiness bad"');
      expect(page.body).toContain('<b>Not ready</b>');
      expect(page.body).toContain(`<li>folder ${folder}: ENOTDIR</li>`);
    });
  });

  it('escapes what it shows: a file named like markup stays text', async () => {
    await withConsoleDaemon({}, async ({ url, inbox }) => {
      fs.writeFileSync(path.join(inbox, 'x<img src=y onerror=alert(1)>.csv'), 'not;a;request\n');
      await waitUntil(async () => (await send(`${url}/flows/requests/files`, { headers: JSON_ACCEPT })).json<Data>().files.length === 1, 'the file taken');
      const html = (await send(`${url}/flows/requests/files`)).body;
      expect(html).toContain('x&lt;img src=y onerror=alert(1)&gt;.csv');
      expect(html).not.toContain('<img src=y');
    });
  });

  it("names each problem's request on a file's page, beside its row, as the reports do", async () => {
    await withConsoleDaemon({}, async ({ url, inbox }) => {
      fs.copyFileSync(path.join(REPO, 'samples/broken/bad-inn.csv'), path.join(inbox, 'bad-inn.csv'));
      const files = async () => (await send(`${url}/flows/requests/files`, { headers: JSON_ACCEPT })).json<Data>().files as { id: number; state: string }[];
      await waitUntil(async () => (await files()).some((f) => f.state === 'archived'), 'the partly bad file archived');
      const id = (await files())[0]!.id;
      const file = (await send(`${url}/flows/requests/files/${id}`, { headers: JSON_ACCEPT })).json<Data>();
      expect(file.problems).toMatchObject([{ row: 5, field: 'customer.inn', code: 'INN_INVALID', externalId: 'ЗК-000102' }]);
      const html = (await send(`${url}/flows/requests/files/${id}`)).body;
      expect(html).toMatch(/<tr><td class="num">5<\/td><td><code>ЗК-000102<\/code><\/td><td>customer\.inn<\/td>/);
      // Above the problems, how their rows are numbered: a CSV's lines.
      expect(file.rows).toBe('lines');
      expect(html).toContain('Rows are numbered as lines of the file (the header is line 1)');
    });
  });

  it("names a workbook problem's cell on the file's page and in the log, as the report does", async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    // The demo's 1C report read without fillDown: ЗК-000402's second line (row 10) leaves its request columns blank.
    const mappingDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-report-'));
    const mapping = path.join(mappingDir, 'report.yaml');
    const shipped = fs.readFileSync(path.join(REPO, 'config/mappings/1c-report-xlsx.yaml'), 'utf8');
    fs.writeFileSync(mapping, shipped.replace(/^fillDown: true.*$/m, 'fillDown: false'));
    const extraFlows = `
  - name: workbooks
    kind: requests
    inbox: {dir}/workbooks
    mapping: ${mapping}
    results: {dir}/workbook-results
    intake: { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 200, rejectPastDates: false }`;
    try {
      await withConsoleDaemon({ extraFlows, logger: createLogger({ level: 'info', destination: sink }) }, async ({ url, dir }) => {
        fs.copyFileSync(path.join(REPO, 'samples/requests-1c-report.xlsx'), path.join(dir, 'workbooks', 'report.xlsx'));
        const files = async () => (await send(`${url}/flows/workbooks/files`, { headers: JSON_ACCEPT })).json<Data>().files as { id: number; state: string }[];
        await waitUntil(async () => (await files()).some((f) => f.state === 'archived'), 'the workbook archived');
        const id = (await files())[0]!.id;
        const file = (await send(`${url}/flows/workbooks/files/${id}`, { headers: JSON_ACCEPT })).json<Data>();
        expect(file.problems).toMatchObject([{ row: 10, cell: 'Заявки!A10', field: 'externalId', code: 'FIELD_REQUIRED', text: { key: 'groupEmpty' } }]);
        const html = (await send(`${url}/flows/workbooks/files/${id}`)).body;
        expect(html).toMatch(/<td class="num">10 <span class="muted">Заявки!A10<\/span><\/td>/);
        const recorded = lines.find((line) => line.msg === 'file recorded' && line.flow === 'workbooks');
        expect(recorded?.firstProblems).toMatchObject([{ code: 'FIELD_REQUIRED', row: 10, cell: 'Заявки!A10', field: 'externalId' }]);
      });
    } finally {
      fs.rmSync(mappingDir, { recursive: true, force: true });
    }
  });

  it('leaves the admin listener as it was with console.enabled false', async () => {
    await withConsoleDaemon({ password: null, disabled: true }, async ({ url }) => {
      expect((await send(`${url}/`)).status).toBe(404);
      expect((await send(`${url}/attention`, { method: 'POST' })).status).toBe(405);
      expect((await send(`${url}/metrics`)).status).toBe(200);
    });
  });

  it('keeps an externalId with a slash in one path segment', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      const text = fs.readFileSync(SAMPLE).toString('latin1').replaceAll('\xc7\xca-000101', 'A/B-1');
      fs.writeFileSync(path.join(inbox, 'slash.csv'), Buffer.from(text, 'latin1'));
      await waitUntil(() => daemon.sandbox!.requests().some((r) => r.externalId === 'A/B-1'), 'A/B-1 accepted');
      const story = await send(`${url}/flows/requests/requests/${encodeURIComponent('A/B-1')}`, { headers: JSON_ACCEPT });
      expect(story.status).toBe(200);
      expect(story.json<{ externalId: string }>().externalId).toBe('A/B-1');
    });
  });
});

describe('who may look', () => {
  it('on loopback: pages are open to this host only (not to another Host name, not through a proxy)', async () => {
    await withConsoleDaemon({}, async ({ url }) => {
      expect((await send(`${url}/attention`, { headers: { ...JSON_ACCEPT, host: 'localhost' } })).status).toBe(200);
      // A page elsewhere whose DNS name was rebound to 127.0.0.1 sends its own name.
      const rebound = await send(`${url}/attention`, { headers: { host: 'attacker.example:9464' } });
      expect(rebound.status).toBe(303);
      expect(rebound.headers.location).toBe('/login?next=%2Fattention');
      expect((await send(`${url}/attention`, { headers: { ...JSON_ACCEPT, 'x-forwarded-for': '203.0.113.9' } })).json()).toEqual({
        error: { code: 'CONSOLE_REQUEST_REFUSED', message: expect.stringContaining('Actions always need the operator password') },
      });
    });
  });

  it('beyond loopback: every page needs the password; a script signs in and reads the JSON', async () => {
    await withConsoleDaemon({ host: '0.0.0.0' }, async ({ url }) => {
      for (const p of ['/', '/attention', '/events', '/audit', '/flows/requests/requests', '/flows/requests/files', `/flows/requests/requests/${id}`]) {
        expect((await send(`${url}${p}`, { headers: JSON_ACCEPT })).status, p).toBe(401);
      }
      expect((await send(`${url}/assets/console.css`)).status).toBe(200);
      expect((await send(`${url}/metrics`)).status).toBe(200);
      const { cookie } = await signIn(url, PASSWORD);
      const overview = await send(`${url}/`, { headers: { ...JSON_ACCEPT, cookie } });
      expect(overview.status).toBe(200);
      expect(overview.json()).toMatchObject({ page: 'overview' });
    });
  });

  it('beyond loopback without a password: nothing opens (and nobody can sign in)', async () => {
    await withConsoleDaemon({ host: '0.0.0.0', password: null }, async ({ url }) => {
      expect((await send(`${url}/`, { headers: JSON_ACCEPT })).status).toBe(401);
      const login = await send(`${url}/login`, { method: 'POST', ...form({ password: 'x' }) });
      expect(login.status).toBe(403);
      expect(login.body).toContain('console.password is not set');
    });
  });
});

describe('who may act', () => {
  it('needs a session, the CSRF token and the console’s own origin; the outcome is audited', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon }) => {
      daemon.sandbox!.setFaults({ create: { status500: 1 } });
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(async () => (await send(`${url}/attention`, { headers: JSON_ACCEPT })).json<{ total: number }>().total === 3, 'three dead letters');
      daemon.sandbox!.setFaults({});
      const retry = `${url}/flows/requests/requests/${id}/retry`;

      const anonymous = await send(retry, { method: 'POST', headers: JSON_ACCEPT });
      expect(anonymous.status).toBe(401);
      expect((await send(retry)).headers.location).toBe(`/login?next=${encodeURIComponent(`/flows/requests/requests/${id}/retry`)}`);

      const { cookie, csrfToken } = await signIn(url, PASSWORD, 'Анна');
      const noToken = await send(retry, { method: 'POST', ...withHeaders(form({}), { cookie, ...JSON_ACCEPT }) });
      expect(noToken.status).toBe(403);
      expect(noToken.json()).toMatchObject({ error: { code: 'CONSOLE_REQUEST_REFUSED' } });
      const wrongToken = await send(retry, { method: 'POST', ...withHeaders(form({ _csrf: `${csrfToken}x` }), { cookie, ...JSON_ACCEPT }) });
      expect(wrongToken.status).toBe(403);
      const foreign = await send(retry, {
        method: 'POST',
        ...withHeaders(form({ _csrf: csrfToken }), { cookie, origin: 'http://attacker.example', ...JSON_ACCEPT }),
      });
      expect(foreign.status).toBe(403);
      expect((await send(`${url}/audit`, { headers: JSON_ACCEPT })).json()).toEqual({ page: 'audit', entries: [] });

      const done = await send(retry, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, origin: url, ...JSON_ACCEPT } });
      expect(done.status).toBe(200);
      expect(done.json()).toMatchObject({
        audit: { actor: 'Анна', address: '127.0.0.1', action: 'retry-submission', flow: 'requests', target: 'ЗК-000101', result: 'ok' },
      });
      await waitUntil(() => daemon.sandbox!.requests().length === 1, 'ЗК-000101 accepted');

      const again = await send(retry, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, ...JSON_ACCEPT } });
      expect(again.json()).toMatchObject({ audit: { result: 'nothing', detail: 'nothing was rejected, held or dead' } });
      const dead = await send(`${url}/flows/requests/dead/retry`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, ...JSON_ACCEPT } });
      expect(dead.json()).toMatchObject({ audit: { action: 'retry-dead', result: 'ok', detail: '2 dead letter(s) requeued' } });
      const resume = await send(`${url}/flows/requests/resume`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, ...JSON_ACCEPT } });
      expect(resume.json()).toMatchObject({ audit: { action: 'resume-flow', result: 'nothing' } });
      const retake = await send(`${url}/flows/requests/files/1/retake`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrfToken, ...JSON_ACCEPT } });
      expect(retake.status).toBe(409);
      expect(retake.json()).toMatchObject({ audit: { action: 'retake-file', result: 'failed', detail: expect.stringContaining('is archived, not rejected') } });
      const attention = (await send(`${url}/attention`, { headers: JSON_ACCEPT })).json<Data>();
      expect(attention.flows[0].actions.map((e: { action: string }) => e.action)).toEqual(['resume-flow', 'retry-dead']);
      const audit = (await send(`${url}/audit`, { headers: JSON_ACCEPT })).json<{ entries: { action: string }[] }>();
      expect(audit.entries.map((e) => e.action)).toEqual(['retake-file', 'resume-flow', 'retry-dead', 'retry-submission', 'retry-submission']);
    });
  });

  it('offers no action without a password, even on loopback', async () => {
    await withConsoleDaemon({ password: null }, async ({ url }) => {
      expect((await send(`${url}/flows/requests/dead/retry`, { headers: JSON_ACCEPT })).status).toBe(403);
      expect((await send(`${url}/flows/requests/dead/retry`, { method: 'POST', headers: JSON_ACCEPT })).status).toBe(403);
      expect((await send(`${url}/attention`)).body).not.toContain('/dead/retry');
    });
  });
});

describe('signing in', () => {
  it('logs a wrong password without the password, and refuses the address after five failures (429), even with the right one', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    await withConsoleDaemon({ logger: createLogger({ level: 'info', destination: sink }) }, async ({ url }) => {
      for (let i = 0; i < 5; i += 1) {
        const wrong = await send(`${url}/login`, { method: 'POST', ...withHeaders(form({ name: 'Mallory', password: `guess-number-${i}` }), JSON_ACCEPT) });
        expect(wrong.json()).toEqual({ error: { code: 'CONSOLE_LOGIN_REFUSED', message: 'Wrong password.' } });
      }
      const limited = await send(`${url}/login`, { method: 'POST', ...form({ name: 'Mallory', password: PASSWORD }) });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
      expect(limited.headers['set-cookie']).toBeUndefined();
    });
    const refusals = lines.filter((line) => line.code === 'CONSOLE_LOGIN_REFUSED');
    expect(refusals).toHaveLength(6);
    expect(refusals[0]).toMatchObject({ level: 'warn', address: '127.0.0.1', name: 'Mallory', msg: 'console sign-in refused: wrong password' });
    expect(JSON.stringify(lines)).not.toContain('guess-number');
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it('sets an HttpOnly, SameSite=Strict cookie with the session’s lifetime, and sends a foreign origin away', async () => {
    await withConsoleDaemon({}, async ({ url }) => {
      const ok = await send(`${url}/login`, { method: 'POST', ...form({ password: PASSWORD, next: '//attacker.example/' }) });
      expect(ok.status).toBe(303);
      expect(ok.headers.location).toBe('/');
      expect(ok.headers['set-cookie']?.[0]).toMatch(/^pc_console=[\w-]{43}; Max-Age=28800; Path=\/; HttpOnly; SameSite=Strict$/);
      const foreign = await send(`${url}/login`, { method: 'POST', ...withHeaders(form({ password: PASSWORD }), { origin: 'http://attacker.example' }) });
      expect(foreign.status).toBe(403);
      expect(foreign.headers['set-cookie']).toBeUndefined();
    });
  });
});

function withHeaders(f: { body: string; headers: Record<string, string> }, headers: Record<string, string>) {
  return { body: f.body, headers: { ...f.headers, ...headers } };
}
