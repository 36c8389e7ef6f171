/**
 * The console's mapping page over plain HTTP, against the real daemon and real folders: the page
 * and its preview (good YAML, a bad key, a syntax error by line and column, the wrong kind), the
 * samples (the archive's newest files, an upload, never a path or a link), suggest, and saving
 * (who may, what it checks, the dated backup, the atomic write, the reload the next file is mapped
 * with, the audit, and a mapping folder the daemon may not write).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonSchemaOf } from '../../../../src/config/json-schema.js';
import { localStamp } from '../../../../src/shared/local-time.js';
import { canMakeReadOnly, whileReadOnly } from '../../../helpers/read-only.js';
import { REPO } from '../../../helpers/with-daemon.js';
import { waitUntil } from '../../../helpers/wait-until.js';
import { buildEditorBundle } from '../../../helpers/console/editor-page.js';
import { form, send, signIn } from '../../../helpers/console/http.js';
import { PASSWORD, withConsoleDaemon, type ConsoleDaemon } from '../../../helpers/console/with-console-daemon.js';

// The answers' JSON, read loosely: the assertions say what each must hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

const JSON_ACCEPT = { accept: 'application/json' };
const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');
const MAPPING = fs.readFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), 'utf8');
/** The 1C mapping with every line's unit a constant: easy to see in a payload. */
const BOXES = MAPPING.replace('unit: { column: "Ед. изм." }', 'unit: { const: "коробка" }');

/** The archived `requests.csv` (the archive keeps it under its file id: `1-requests.csv`): its sample id and name. */
function archived(inbox: string): { id: string; name: string } | undefined {
  const archive = path.join(inbox, 'archive');
  for (const day of fs.existsSync(archive) ? fs.readdirSync(archive) : []) {
    const name = fs.readdirSync(path.join(archive, day)).find((n) => n.endsWith('requests.csv'));
    if (name) return { id: `archive:${day}/${name}`, name };
  }
  return undefined;
}

/** Drop the 1C sample into the inbox and wait until it is archived: the page's first sample. Its id, and its name in the archive. */
async function archiveSample(c: ConsoleDaemon): Promise<{ id: string; name: string }> {
  fs.copyFileSync(SAMPLE, path.join(c.inbox, 'requests.csv'));
  // Delivery may finish before the intake moves the file: wait for both.
  await waitUntil(() => c.daemon.sandbox!.requests().length >= 3 && archived(c.inbox) !== undefined, 'the sample delivered and archived');
  return archived(c.inbox)!;
}

/** POST a form as the page's script does (multipart, with a file when given), answering status and body. */
async function post(
  url: string,
  fields: Record<string, string>,
  o: { accept?: string; session?: { cookie: string; csrfToken: string }; file?: { name: string; bytes: Buffer }; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; json: () => Data }> {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  if (o.session) body.append('_csrf', o.session.csrfToken);
  if (o.file) body.append('upload', new Blob([o.file.bytes]), o.file.name);
  const response = await fetch(url, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: { accept: o.accept ?? 'application/json', ...(o.session ? { cookie: o.session.cookie } : {}), ...o.headers },
  });
  const text = await response.text();
  return { status: response.status, body: text, json: () => JSON.parse(text) as Data };
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const backupsOf = (dir: string) => fs.readdirSync(dir).filter((name) => name.startsWith('mapping.yaml.') && name.endsWith('.bak'));

describe('the mapping page', () => {
  beforeAll(buildEditorBundle);

  it('shows the flow’s mapping and its newest archived files, and previews one with the real mapper (JSON, HTML, the fragment)', async () => {
    await withConsoleDaemon({}, async (c) => {
      const { id, name } = await archiveSample(c);
      const page = (await send(`${c.url}/mapping`, { headers: JSON_ACCEPT })).json<Data>();
      expect(page).toMatchObject({
        page: 'mapping',
        flow: 'requests',
        kind: 'requests',
        file: path.join(c.dir, 'mapping.yaml'),
        text: MAPPING,
        notWritable: null,
      });
      expect(page.version).toBe(sha256(MAPPING));
      expect(page.samples).toMatchObject([{ id, source: 'archive', name, sizeBytes: fs.statSync(SAMPLE).size }]);
      expect(page.sampleId).toBe(id);
      expect(page.preview).toMatchObject({ mapping: { ok: true, format: 'csv' }, result: { submissions: 3, problems: 0 } });
      expect(page.preview.result.payloads.map((p: Data) => p.key)).toEqual(['ЗК-000101', 'ЗК-000102', 'ЗК-000103']);

      const html = await send(`${c.url}/mapping`);
      expect(html.status).toBe(200);
      expect(html.headers['content-security-policy']).toContain("script-src 'self'");
      expect(html.body).toContain('<script src="/assets/mapping.js" defer="">');
      // The editor enhances the textarea, which names the schema it checks with.
      expect(html.body).toContain('<script src="/assets/editor.js" defer="">');
      expect(html.body).toContain('data-schema="/mapping/schema.json?flow=requests"');
      expect(html.body).toContain('groupBy: &quot;Номер заявки&quot;');
      expect(html.body).not.toMatch(/<script>|style="/);
      expect((await send(`${c.url}/assets/mapping.js`)).headers['content-type']).toBe('text/javascript; charset=utf-8');
      const editor = await send(`${c.url}/assets/editor.js`);
      expect(editor.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(editor.body).toMatch(/^\/\*! The mapping editor of procurement-connector/);
      expect((await send(`${c.url}/assets/editor.licenses.txt`)).body).toContain('@codemirror/view');

      const edited = await post(`${c.url}/mapping/preview`, { flow: 'requests', sample: id, yaml: BOXES });
      expect(edited.status).toBe(200);
      const preview = edited.json();
      expect(preview).toMatchObject({ flow: 'requests', sample: { id }, sampleError: null, mapping: { ok: true }, result: { submissions: 3, problems: 0 } });
      expect(preview.result.payloads[0].payload.items.map((item: Data) => item.unit)).toEqual(['коробка', 'коробка', 'коробка']);

      const fragment = await post(`${c.url}/mapping/preview?part=preview`, { flow: 'requests', sample: id, yaml: BOXES }, { accept: 'text/html' });
      expect(fragment.body.startsWith('<section id="preview"')).toBe(true);
      expect(fragment.body).toContain('коробка');
      expect(fragment.body).not.toContain('<!DOCTYPE');

      // Without JavaScript: the same form answers the whole page with the posted text in the editor.
      const noScript = await send(`${c.url}/mapping/preview`, { method: 'POST', ...form({ flow: 'requests', sample: id, yaml: BOXES }) });
      expect(noScript.body).toContain('unit: { const: &quot;коробка&quot; }');
      expect(noScript.body).toContain('<section id="preview"');
    });
  });

  it('picks a second flow by ?flow=: its own mapping, its kind, previews of its own samples, and the other kind refused', async () => {
    const confirmationsMapping = path.join(REPO, 'config/mappings/supplier-confirmations.yaml');
    const extraFlows = `
  - name: confirmations
    kind: confirmations
    inbox: {dir}/confirmations
    mapping: ${confirmationsMapping}
    results: {dir}/confirmation-results
    token: sandbox-supplier-token`;
    await withConsoleDaemon({ extraFlows }, async (c) => {
      const text = fs.readFileSync(confirmationsMapping, 'utf8');
      const page = (await send(`${c.url}/mapping?flow=confirmations`, { headers: JSON_ACCEPT })).json<Data>();
      expect(page).toMatchObject({ page: 'mapping', flow: 'confirmations', kind: 'confirmations', file: confirmationsMapping, text, samples: [] });
      const html = (await send(`${c.url}/mapping?flow=confirmations`)).body;
      expect(html).toMatch(/<option value="confirmations" selected="">/);

      const sample = fs.readFileSync(path.join(REPO, 'samples/supplier-confirmation.csv'));
      const preview = (
        await post(`${c.url}/mapping/preview`, { flow: 'confirmations', sample: '', yaml: text }, { file: { name: 'confirm.csv', bytes: sample } })
      ).json();
      expect(preview).toMatchObject({ flow: 'confirmations', mapping: { ok: true }, sampleError: null });
      expect(preview.result.submissions).toBeGreaterThan(0);
      expect(preview.result.payloads[0].key).toMatch(/^ORD-/);

      expect((await post(`${c.url}/mapping/preview`, { flow: 'confirmations', yaml: MAPPING })).json().mapping.problems[0]).toMatchObject({
        path: 'kind',
        message: 'flow confirmations takes confirmations mappings; this is a requests mapping',
      });
      expect((await send(`${c.url}/mapping?flow=nope`)).status).toBe(404);

      // Each flow's editor gets its kind's schema.
      expect((await send(`${c.url}/mapping/schema.json?flow=confirmations`)).json()).toEqual(jsonSchemaOf('mapping-confirmations'));
      expect((await send(`${c.url}/mapping/schema.json?flow=requests`)).json()).toEqual(jsonSchemaOf('mapping-requests'));
    });
  });

  it('serves the editor the flow kind’s JSON Schema (the shipped one), revalidated by its ETag, to whom may read the page', async () => {
    await withConsoleDaemon({ host: '0.0.0.0' }, async (c) => {
      const schemaUrl = `${c.url}/mapping/schema.json?flow=requests`;
      expect((await send(schemaUrl, { headers: JSON_ACCEPT })).status).toBe(401);
      const session = await signIn(c.url, PASSWORD);
      const answer = await send(schemaUrl, { headers: { cookie: session.cookie } });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.json()).toEqual(JSON.parse(fs.readFileSync(path.join(REPO, 'schemas/mapping-requests.schema.json'), 'utf8')));
      const again = await send(schemaUrl, { headers: { cookie: session.cookie, 'if-none-match': String(answer.headers.etag) } });
      expect(again.status).toBe(304);
      expect((await send(`${c.url}/mapping/schema.json?flow=nope`, { headers: { cookie: session.cookie, ...JSON_ACCEPT } })).status).toBe(404);
    });
  });

  it('reports a bad key by its path, line, column and the key meant, and a YAML syntax error by line and column, never with a stack trace', async () => {
    await withConsoleDaemon({}, async (c) => {
      const { id } = await archiveSample(c);
      const typo = MAPPING.replace('integer: true', 'integr: true');
      const before = typo.slice(0, typo.indexOf('integr:'));
      const [line, column] = [before.split('\n').length, before.length - before.lastIndexOf('\n')];
      const badKey = await post(`${c.url}/mapping/preview`, { flow: 'requests', sample: id, yaml: typo });
      expect(badKey.json()).toMatchObject({
        mapping: {
          ok: false,
          code: 'MAPPING_INVALID',
          problems: [
            {
              path: 'items.quantity.integr',
              message: 'unknown key; did you mean integer?',
              line,
              column,
              text: { key: 'unknownKeyNear', params: { suggestion: 'integer' } },
            },
          ],
        },
        result: null,
      });
      const panel = (await post(`${c.url}/mapping/preview?part=preview`, { flow: 'requests', yaml: typo }, { accept: 'text/html' })).body;
      expect(panel).toContain(`data-line="${line}" data-column="${column}"`);
      expect(panel).toContain(`<code>items.quantity.integr</code> <span class="place">line ${line}, column ${column}</span>`);
      expect(panel).toContain('unknown key; did you mean integer?');

      // Line 6 opens a flow map that never closes: the parser finds out at the start of line 7.
      const broken = MAPPING.replace('groupBy: "Номер заявки"', 'groupBy: { column: "Номер заявки"');
      const syntax = await post(`${c.url}/mapping/preview`, { flow: 'requests', sample: id, yaml: broken });
      const problems = syntax.json().mapping.problems as Data[];
      expect(problems[0]).toMatchObject({ path: '', line: 7, column: 1, message: expect.stringContaining('at line 7, column 1') });
      for (const answer of [
        syntax.body,
        (await post(`${c.url}/mapping/preview?part=preview`, { flow: 'requests', yaml: broken }, { accept: 'text/html' })).body,
      ]) {
        expect(answer).not.toMatch(/\n\s+at |\.ts:\d|node_modules|YAMLParseError/);
      }
      const fragment = (await post(`${c.url}/mapping/preview?part=preview`, { flow: 'requests', yaml: broken }, { accept: 'text/html' })).body;
      expect(fragment).toContain('data-line="7" data-column="1"');
      expect(fragment).toContain('line 7, column 1');

      const confirmations = fs.readFileSync(path.join(REPO, 'config/mappings/supplier-confirmations.yaml'), 'utf8');
      expect((await post(`${c.url}/mapping/preview`, { flow: 'requests', yaml: confirmations })).json().mapping.problems).toEqual([
        {
          path: 'kind',
          message: 'flow requests takes requests mappings; this is a confirmations mapping',
          line: null,
          column: null,
          text: { key: 'kindMismatch', params: { flow: 'requests', kind: 'requests', actual: 'confirmations' } },
        },
      ]);
      const huge = `${MAPPING}# ${'x'.repeat(1024 * 1024)}\n`;
      expect((await post(`${c.url}/mapping/preview`, { flow: 'requests', yaml: huge })).json().mapping.problems[0].message).toMatch(
        /is \d+ bytes, more than the 1048576 a mapping file may have/,
      );
    });
  });

  it('maps an uploaded sample and keeps it for the next previews; the problems point at row, column and the cell’s value', async () => {
    await withConsoleDaemon({}, async (c) => {
      // ЗК-000102's INN with a wrong check digit (digits are the same bytes in windows-1251).
      const bytes = Buffer.from(fs.readFileSync(SAMPLE).toString('latin1').replaceAll('0274062111', '0274062112'), 'latin1');
      const first = await post(
        `${c.url}/mapping/preview`,
        { flow: 'requests', sample: '', yaml: MAPPING },
        { file: { name: 'C:\\exports\\my export.csv', bytes } },
      );
      const preview = first.json();
      expect(preview.sample).toMatchObject({ source: 'upload', name: 'my export.csv', sizeBytes: bytes.length });
      expect(preview.sample.id).toMatch(/^upload:[A-Za-z0-9_-]{22}$/);
      expect(preview.result).toMatchObject({ submissions: 2, problems: 1 });
      expect(preview.result.problemRows).toEqual([
        {
          row: 5,
          field: 'customer.inn',
          column: 'ИНН',
          code: 'INN_INVALID',
          message: 'Row 5 of my export.csv: customer.inn "0274062112" fails the INN check digit',
          text: { key: 'innCheck' },
          cell: null,
          line: null,
          lineColumn: null,
          value: '0274062112',
          externalId: 'ЗК-000102',
        },
      ]);

      const again = await post(`${c.url}/mapping/preview`, { flow: 'requests', sample: preview.sample.id, yaml: BOXES });
      expect(again.json()).toMatchObject({ sample: { id: preview.sample.id }, result: { submissions: 2, problems: 1 } });
      const table = (await post(`${c.url}/mapping/preview?part=preview`, { flow: 'requests', sample: preview.sample.id, yaml: BOXES }, { accept: 'text/html' }))
        .body;
      expect(table).toContain(`data-sample-id="${preview.sample.id}"`);
      expect(table).toMatch(/<td class="num">5<\/td><td><code>ЗК-000102<\/code><\/td><td>customer\.inn<\/td><td>ИНН<\/td>/);
      // A CSV's rows are its lines, and the page says so above the problems.
      expect(again.json()).toMatchObject({ result: { rows: 'lines', outcome: { state: 'archived', code: null } } });
      expect(table).toContain('Rows are numbered as lines of the file (the header is line 1)');

      const tooBig = await post(
        `${c.url}/mapping/preview`,
        { flow: 'requests', yaml: MAPPING },
        { file: { name: 'big.csv', bytes: Buffer.alloc(4 * 1024 * 1024 + 1, 0x61) } },
      );
      expect(tooBig.json()).toMatchObject({ sample: null, sampleError: { code: 'FILE_TOO_LARGE' }, result: null });
      expect(
        (await post(`${c.url}/mapping/preview`, { flow: 'requests', sample: 'upload:AAAAAAAAAAAAAAAAAAAAAA', yaml: MAPPING })).json().sampleError,
      ).toMatchObject({
        code: 'FILE_UNREADABLE',
      });
    });
  });

  it('reads only archived files it listed itself: never a path a user names, never through a link, never a FIFO', async () => {
    await withConsoleDaemon({}, async (c) => {
      const { id } = await archiveSample(c);
      const day = id.slice('archive:'.length, id.indexOf('/'));
      const folder = path.join(c.inbox, 'archive', day);
      const secret = path.join(c.dir, 'secret.csv');
      fs.writeFileSync(secret, 'password;hunter2\n');
      fs.symlinkSync(secret, path.join(folder, 'link.csv'));
      execFileSync('mkfifo', [path.join(folder, 'fifo.csv')]);
      const elsewhere = path.join(c.dir, 'elsewhere');
      fs.mkdirSync(elsewhere);
      fs.copyFileSync(secret, path.join(elsewhere, 'requests.csv'));
      fs.symlinkSync(elsewhere, path.join(c.inbox, 'archive', '2001-01-01'));

      const listed = (await send(`${c.url}/mapping`, { headers: JSON_ACCEPT })).json<Data>().samples.map((s: Data) => s.id);
      expect(listed).toEqual([id]);
      const tries: [string, string][] = [
        [`archive:${day}/link.csv`, 'FILE_NOT_REGULAR'],
        [`archive:${day}/fifo.csv`, 'FILE_NOT_REGULAR'],
        ['archive:2001-01-01/requests.csv', 'FILE_UNREADABLE'],
        [`archive:${day}/../../secret.csv`, 'FILE_UNREADABLE'],
        [secret, 'FILE_UNREADABLE'],
        [`archive:${day}/${path.relative(folder, secret)}`, 'FILE_UNREADABLE'],
      ];
      for (const [sample, code] of tries) {
        const answer = await post(`${c.url}/mapping/suggest`, { flow: 'requests', sample, yaml: MAPPING });
        expect(answer.status, sample).toBe(422);
        expect(answer.json().error.code, sample).toBe(code);
        expect(answer.body).not.toContain('hunter2');
      }
    });
  });

  it('suggests a mapping from the sample: its YAML, its summary and its preview', async () => {
    await withConsoleDaemon({}, async (c) => {
      const { id, name } = await archiveSample(c);
      const answer = await post(`${c.url}/mapping/suggest`, { flow: 'requests', sample: id, yaml: '' });
      expect(answer.status).toBe(200);
      const suggestion = answer.json();
      expect(suggestion).toMatchObject({
        flow: 'requests',
        sample: { id },
        complete: true,
        preview: { mapping: { ok: true }, result: { submissions: 3, problems: 0 } },
      });
      expect(suggestion.yaml).toContain('groupBy: "Номер заявки"');
      expect(suggestion.yaml).toContain('customer.inn: { column: "ИНН" }');
      expect(suggestion.summary).toContain(`Suggested a requests mapping for ${name} (in the editor).`);

      const page = await send(`${c.url}/mapping/suggest`, { method: 'POST', ...form({ flow: 'requests', sample: id, yaml: MAPPING }) });
      expect(page.status).toBe(200);
      expect(page.body).toContain('# Mapping suggested by `procurement-connector mapping suggest`');
      expect(page.body).toContain(`Suggested a requests mapping for ${name}`);

      const nothing = await post(`${c.url}/mapping/suggest`, { flow: 'requests', sample: '', yaml: MAPPING });
      expect(nothing.status).toBe(422);
      expect(nothing.json().error).toMatchObject({ code: 'FILE_UNREADABLE', message: expect.stringContaining('choose a sample') });
    });
  });
});

describe('the mapping page with what 1C saves without code', () => {
  it('previews and suggests from an uploaded workbook saved from a 1C report, and from an uploaded CommerceML export', async () => {
    await withConsoleDaemon({}, async (c) => {
      const report = { name: 'Заявки за ноябрь.xlsx', bytes: fs.readFileSync(path.join(REPO, 'samples/requests-1c-report.xlsx')) };
      const reportMapping = fs.readFileSync(path.join(REPO, 'config/mappings/1c-report-xlsx.yaml'), 'utf8');
      const preview = (await post(`${c.url}/mapping/preview`, { flow: 'requests', yaml: reportMapping }, { file: report })).json();
      expect(preview).toMatchObject({
        sample: { source: 'upload', name: report.name },
        mapping: { ok: true, format: 'xlsx' },
        result: { submissions: 3, problems: 0 },
      });

      const suggested = (await post(`${c.url}/mapping/suggest`, { flow: 'requests', sample: preview.sample.id, yaml: '' })).json();
      expect(suggested).toMatchObject({ complete: true, preview: { mapping: { ok: true, format: 'xlsx' }, result: { submissions: 3, problems: 0 } } });
      expect(suggested.yaml).toContain('fillDown: true');
      expect(suggested.summary).toContain('Sample: XLSX, sheet "Заявки", header on row 4');

      const orders = { name: 'orders.xml', bytes: fs.readFileSync(path.join(REPO, 'samples/commerceml-orders.xml')) };
      const xmlMapping = fs.readFileSync(path.join(REPO, 'config/mappings/commerceml-orders.yaml'), 'utf8');
      const xml = (await post(`${c.url}/mapping/preview`, { flow: 'requests', yaml: xmlMapping }, { file: orders })).json();
      expect(xml).toMatchObject({ mapping: { ok: true, format: 'xml' }, result: { submissions: 3, problems: 0 } });
      const fromXml = (await post(`${c.url}/mapping/suggest`, { flow: 'requests', sample: xml.sample.id, yaml: '' })).json();
      expect(fromXml.yaml).toContain('preset: commerceml');
      expect(fromXml.summary).toContain('a CommerceML document export, 3 order documents');
    });
  });
});

describe('the mapping page, archived workbooks and XML', () => {
  it('lists a flow’s archived xlsx and CommerceML files and previews each with the flow’s mapping', async () => {
    const extraFlows = `
  - name: workbooks
    kind: requests
    inbox: {dir}/workbooks
    mapping: ${path.join(REPO, 'config/mappings/1c-report-xlsx.yaml')}
    results: {dir}/workbook-results
    intake: { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 200, rejectPastDates: false }
  - name: orders
    kind: requests
    inbox: {dir}/orders
    mapping: ${path.join(REPO, 'config/mappings/commerceml-orders.yaml')}
    results: {dir}/order-results
    intake: { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 200, rejectPastDates: false }`;
    await withConsoleDaemon({ extraFlows }, async (c) => {
      const cases = [
        { flow: 'workbooks', sample: 'samples/requests-1c-report.xlsx', format: 'xlsx' },
        { flow: 'orders', sample: 'samples/commerceml-orders.xml', format: 'xml' },
      ];
      for (const { flow, sample } of cases) fs.copyFileSync(path.join(REPO, sample), path.join(c.dir, flow, path.basename(sample)));
      for (const { flow, sample, format } of cases) {
        const page = async () => (await send(`${c.url}/mapping?flow=${flow}`, { headers: JSON_ACCEPT })).json<Data>();
        await waitUntil(async () => ((await page()).samples as Data[]).length > 0, `${flow}: the file archived`);
        const { samples, sampleId, preview } = await page();
        expect(samples).toMatchObject([{ source: 'archive', name: expect.stringMatching(new RegExp(`${path.basename(sample).replace('.', '\\.')}$`)) }]);
        expect(sampleId).toBe(samples[0].id);
        expect(preview).toMatchObject({ mapping: { ok: true, format }, result: { submissions: 3, problems: 0 } });
      }
    });
  });
});

describe('saving a mapping', () => {
  it('needs a session, its CSRF token and the console’s own origin, even on loopback; previews need the token too once signed in', async () => {
    await withConsoleDaemon({}, async (c) => {
      const mapping = path.join(c.dir, 'mapping.yaml');
      const fields = { flow: 'requests', yaml: BOXES };
      const anonymous = await post(`${c.url}/mapping/save`, fields);
      expect(anonymous.status).toBe(401);
      expect(anonymous.json().error.code).toBe('CONSOLE_REQUEST_REFUSED');
      // A browser whose session ended keeps its text on the page.
      const page = await send(`${c.url}/mapping/save`, { method: 'POST', ...form(fields) });
      expect(page.status).toBe(401);
      expect(page.body).toContain('unit: { const: &quot;коробка&quot; }');
      expect(page.body).toContain('your session has ended');

      const session = await signIn(c.url, PASSWORD);
      expect((await post(`${c.url}/mapping/save`, fields, { session: { ...session, csrfToken: 'stale' } })).status).toBe(403);
      expect((await post(`${c.url}/mapping/save`, fields, { session, headers: { origin: 'http://attacker.example' } })).status).toBe(403);
      expect((await post(`${c.url}/mapping/preview`, fields, { session: { ...session, csrfToken: 'stale' } })).status).toBe(403);
      expect((await post(`${c.url}/mapping/preview`, fields, { headers: { origin: 'http://attacker.example' } })).status).toBe(403);
      expect(fs.readFileSync(mapping, 'utf8')).toBe(MAPPING);
      expect(backupsOf(c.dir)).toEqual([]);
      expect((await send(`${c.url}/audit`, { headers: JSON_ACCEPT })).json<Data>().entries).toEqual([]);
    });
    await withConsoleDaemon({ password: null }, async (c) => {
      const refused = await post(`${c.url}/mapping/save`, { flow: 'requests', yaml: BOXES });
      expect(refused.status).toBe(403);
      expect(refused.json().error.message).toContain('console.password');
      expect((await send(`${c.url}/mapping`)).body).toContain('Saving needs console.password');
    });
  });

  it('checks first: a mapping that does not load, the wrong kind, or a file changed on disk since is not written (and is audited)', async () => {
    await withConsoleDaemon({}, async (c) => {
      const mapping = path.join(c.dir, 'mapping.yaml');
      const session = await signIn(c.url, PASSWORD, 'Ivan');
      const invalid = await post(`${c.url}/mapping/save`, { flow: 'requests', yaml: MAPPING.replace('integer: true', 'integr: true') }, { session });
      expect(invalid.status).toBe(422);
      expect(invalid.json()).toMatchObject({
        saved: false,
        error: { code: 'MAPPING_INVALID', problems: [{ path: 'items.quantity.integr' }] },
        audit: { action: 'save-mapping', result: 'failed', actor: 'Ivan', flow: 'requests', target: mapping },
      });
      const confirmations = fs.readFileSync(path.join(REPO, 'config/mappings/supplier-confirmations.yaml'), 'utf8');
      expect((await post(`${c.url}/mapping/save`, { flow: 'requests', yaml: confirmations }, { session })).json().error.problems[0].path).toBe('kind');

      const stale = await post(`${c.url}/mapping/save`, { flow: 'requests', yaml: BOXES, version: sha256('what someone else saw') }, { session });
      expect(stale.status).toBe(409);
      expect(stale.json().error.message).toContain('changed on disk since the page read it');
      expect(fs.readFileSync(mapping, 'utf8')).toBe(MAPPING);
      expect(backupsOf(c.dir)).toEqual([]);
      expect((await send(`${c.url}/audit`, { headers: JSON_ACCEPT })).json<Data>().entries.map((e: Data) => e.result)).toEqual(['failed', 'failed', 'failed']);
    });
  });

  it('keeps the previous file as a dated backup (never over another entry), replaces the file, reloads, and the next file is mapped with it', async () => {
    await withConsoleDaemon({}, async (c) => {
      const mapping = path.join(c.dir, 'mapping.yaml');
      await archiveSample(c);
      const { version } = (await send(`${c.url}/mapping`, { headers: JSON_ACCEPT })).json<Data>();
      // Someone planted links at the backup names of the next seconds: the backup goes beside them, not through them.
      const victim = path.join(c.dir, 'victim.txt');
      fs.writeFileSync(victim, 'untouched');
      const now = Date.now();
      for (let s = 0; s < 30; s += 1) fs.symlinkSync(victim, `${mapping}.${localStamp(now + s * 1000)}.bak`);
      const planted = new Set(backupsOf(c.dir));

      const session = await signIn(c.url, PASSWORD, 'Ivan');
      // A browser sends the textarea with CRLF line ends; the file gets LF.
      const answer = await post(`${c.url}/mapping/save`, { flow: 'requests', yaml: BOXES.replaceAll('\n', '\r\n'), version }, { session });
      expect(answer.status).toBe(200);
      const saved = answer.json();
      expect(saved).toMatchObject({
        saved: true,
        file: mapping,
        reload: { ok: true },
        error: null,
        audit: { action: 'save-mapping', result: 'ok', actor: 'Ivan' },
      });
      expect(saved.backup).toMatch(/mapping\.yaml\.\d{8}-\d{6}-2\.bak$/);
      expect(planted.has(path.basename(saved.backup))).toBe(false);
      expect(fs.readFileSync(saved.backup, 'utf8')).toBe(MAPPING);
      expect(fs.readFileSync(mapping, 'utf8')).toBe(BOXES);
      expect(fs.readFileSync(victim, 'utf8')).toBe('untouched');
      expect(saved.audit.detail).toBe(`saved ${mapping} (the previous one kept as ${path.basename(saved.backup)}); mappings reloaded`);

      // The next file is mapped with the saved mapping, without a restart or a signal.
      const next = fs.readFileSync(SAMPLE).toString('latin1').replaceAll('\xc7\xca-0001', '\xc7\xca-0002');
      fs.writeFileSync(path.join(c.inbox, 'requests-2.csv'), Buffer.from(next, 'latin1'));
      await waitUntil(() => c.daemon.sandbox!.requests().length === 6, 'the next file delivered');
      const sent = c.daemon.sandbox!.requests().filter((r) => r.externalId.startsWith('ЗК-0002'));
      expect(sent.flatMap((r) => r.body.items.map((item) => item.unit))).toEqual(Array(9).fill('коробка'));

      // A browser without JavaScript: back to the page, which announces the save.
      const { version: current } = (await send(`${c.url}/mapping`, { headers: JSON_ACCEPT })).json<Data>();
      const again = await send(`${c.url}/mapping/save`, {
        method: 'POST',
        ...form({ flow: 'requests', yaml: MAPPING, version: current, _csrf: session.csrfToken }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
      });
      expect(again.status).toBe(303);
      expect(again.headers.location).toMatch(/^\/mapping\?flow=requests&done=\d+$/);
      const shown = await send(`${c.url}${again.headers.location}`, { headers: { cookie: session.cookie } });
      expect(shown.body).toMatch(
        /Save a mapping: done\. Saved .*mapping\.yaml \(the previous one kept as mapping\.yaml\.\d{8}-\d{6}(-\d+)?\.bak\); mappings reloaded/,
      );
      expect(fs.readFileSync(mapping, 'utf8')).toBe(MAPPING);
    });
  });

  // As root only the immutable flag makes a folder refuse writes; skipped where root may not set it.
  it.skipIf(!canMakeReadOnly)(
    'says MAPPING_NOT_WRITABLE, before and on saving, when the daemon may not write the mapping’s folder, and writes nothing',
    async () => {
      await withConsoleDaemon({}, async (c) => {
        const mapping = path.join(c.dir, 'mapping.yaml');
        const session = await signIn(c.url, PASSWORD);
        await whileReadOnly(c.dir, async () => {
          const page = (await send(`${c.url}/mapping`, { headers: JSON_ACCEPT })).json<Data>();
          expect(page.notWritable).toMatchObject({ code: 'MAPPING_NOT_WRITABLE', message: expect.stringContaining(`ReadWritePaths=${c.dir}`) });
          const answer = await post(`${c.url}/mapping/save`, { flow: 'requests', yaml: BOXES }, { session });
          expect(answer.status).toBe(409);
          expect(answer.json()).toMatchObject({
            saved: false,
            reload: null,
            error: { code: 'MAPPING_NOT_WRITABLE', message: expect.stringMatching(/is not writable by the daemon \((EACCES|EPERM|EROFS)/) },
            audit: { result: 'failed', detail: expect.stringContaining('MAPPING_NOT_WRITABLE') },
          });
          expect((await send(`${c.url}/mapping`)).body).toContain('Saving from here will not work');
        });
        expect(fs.readFileSync(mapping, 'utf8')).toBe(MAPPING);
        expect(backupsOf(c.dir)).toEqual([]);
      });
    },
  );
});
