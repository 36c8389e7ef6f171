/**
 * `/requests` and `/files`: every flow's requests and files in one list (as HTML and as JSON), the
 * search across flows, the state filter, the flow chooser; their queries walk an index and sort
 * nothing; a path that is no page says which path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILES_OF_FLOWS_SQL } from '../../../src/store/console-files.js';
import { LATEST_OF_FLOWS_SQL } from '../../../src/store/console-submissions.js';
import { openStore, storePath, type Db } from '../../../src/store/open-store.js';
import { withTempDir } from '../../helpers/temp-dir.js';
import { REPO } from '../../helpers/with-daemon.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { send } from '../../helpers/console/http.js';
import { withConsoleDaemon } from '../../helpers/console/with-console-daemon.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');

/** A second flow beside `requests`: the JSON requests of samples/requests.json (ЗК-000301, ЗК-000302). */
const JSON_FLOW = `
  - name: json-requests
    kind: requests
    inbox: {dir}/json-inbox
    mapping: {repo}/config/mappings/requests-json.yaml
    results: {dir}/json-import
    intake: { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 200, rejectPastDates: false }
`;

async function getJson(url: string): Promise<Data> {
  const answer = await send(url, { headers: { accept: 'application/json' } });
  expect(answer.status, url).toBe(200);
  return answer.json<Data>();
}

describe('every flow’s requests and files (/requests, /files)', () => {
  it('list both flows’ rows, each naming its flow; search across flows, exact matches first; filter files by state', async () => {
    await withConsoleDaemon({ extraFlows: JSON_FLOW }, async ({ url, inbox, dir, daemon }) => {
      fs.mkdirSync(path.join(dir, 'json-inbox'), { recursive: true });
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests-0612.csv'));
      fs.copyFileSync(path.join(REPO, 'samples/requests.json'), path.join(dir, 'json-inbox', 'requests.json'));
      fs.copyFileSync(path.join(REPO, 'samples/broken/missing-column.csv'), path.join(inbox, 'broken.csv'));
      await waitUntil(() => daemon.sandbox!.requests().length === 5, 'five requests accepted', 20_000);
      await waitUntil(async () => (await getJson(`${url}/files`)).files.filter((f: Data) => f.state !== 'processing').length === 3, 'three files settled');

      const latest = await getJson(`${url}/requests`);
      expect(latest).toMatchObject({ page: 'all-requests', flows: ['requests', 'json-requests'], q: '', files: [] });
      const byFlow = (rows: Data[]) => rows.map((row) => `${row.flow} ${row.externalId}`).sort();
      expect(byFlow(latest.submissions)).toEqual([
        'json-requests ЗК-000301',
        'json-requests ЗК-000302',
        'requests ЗК-000101',
        'requests ЗК-000102',
        'requests ЗК-000103',
      ]);
      // Newest first across flows.
      expect(latest.submissions.map((row: Data) => row.id)).toEqual([...latest.submissions.map((row: Data) => row.id)].sort((a, b) => b - a));

      const search = await getJson(`${url}/requests?q=${encodeURIComponent('ЗК-0003')}`);
      expect(byFlow(search.submissions)).toEqual(['json-requests ЗК-000301', 'json-requests ЗК-000302']);
      const exact = await getJson(`${url}/requests?q=${encodeURIComponent('ЗК-000102')}`);
      expect(byFlow(exact.submissions)).toEqual(['requests ЗК-000102']);
      const prefix = await getJson(`${url}/requests?q=${encodeURIComponent('ЗК-000')}`);
      expect(prefix.submissions).toHaveLength(5);
      const byName = await getJson(`${url}/requests?q=json`);
      expect(byName.files.map((f: Data) => `${f.flow} ${f.originalName}`)).toEqual(['json-requests requests.json']);
      expect(byFlow(byName.submissions)).toEqual(['json-requests ЗК-000301', 'json-requests ЗК-000302']);

      const html = (await send(`${url}/requests?q=${encodeURIComponent('ЗК-000')}`)).body;
      expect(html).toContain('<h1>Requests of every flow</h1>');
      // The chooser keeps the search; each row links to its flow and its own page.
      expect(html).toContain(`href="/flows/json-requests/requests?q=${encodeURIComponent('ЗК-000')}"`);
      expect(html).toContain(`href="/flows/requests/requests?q=${encodeURIComponent('ЗК-000')}"`);
      expect(html).toContain(`href="/flows/json-requests/requests/${encodeURIComponent('ЗК-000301')}"`);
      expect(html).toContain(`href="/flows/requests/requests/${encodeURIComponent('ЗК-000101')}"`);
      expect((await send(`${url}/requests?q=nothing-like-this`)).body).toContain('Nothing matches “nothing-like-this”.');

      const files = await getJson(`${url}/files`);
      expect(files).toMatchObject({ page: 'all-files', flows: ['requests', 'json-requests'], state: null, nextBefore: null });
      expect(files.files.map((f: Data) => `${f.flow} ${f.originalName} ${f.state}`).sort()).toEqual([
        'json-requests requests.json archived',
        'requests broken.csv rejected',
        'requests requests-0612.csv archived',
      ]);
      const rejected = await getJson(`${url}/files?state=rejected`);
      expect(rejected.files.map((f: Data) => f.originalName)).toEqual(['broken.csv']);
      expect(rejected.state).toBe('rejected');
      const older = await getJson(`${url}/files?before=${files.files[1].id}`);
      expect(older.files.map((f: Data) => f.id)).toEqual([files.files[2].id]);

      const filesHtml = (await send(`${url}/files?state=rejected`)).body;
      expect(filesHtml).toContain('href="/flows/requests/files?state=rejected"');
      expect(filesHtml).toContain('href="/flows/json-requests/files?state=rejected"');
      expect(filesHtml).toContain(`href="/flows/requests/files/${rejected.files[0].id}"`);

      // The menu leads to both lists.
      const overview = (await send(`${url}/`)).body;
      expect(overview).toContain('<a href="/requests">Requests</a>');
      expect(overview).toContain('<a href="/files">Files</a>');
    });
  });

  it('leave out the rows of a flow no longer configured (its pages would not answer)', async () => {
    const seed = (db: Db) => {
      db.prepare(`INSERT INTO files (flow, sha256, original_name, size_bytes, state, claimed_at) VALUES ('gone', 'x', 'old.csv', 1, 'rejected', ?)`).run(
        Date.now(),
      );
    };
    await withConsoleDaemon({ seed }, async ({ url }) => {
      expect((await getJson(`${url}/files`)).files).toEqual([]);
      expect((await getJson(`${url}/files?state=rejected`)).files).toEqual([]);
      expect((await getJson(`${url}/requests`)).submissions).toEqual([]);
    });
  });

  it('answer a path that is no page with 404, its title once and the path as typed', async () => {
    await withConsoleDaemon({ language: 'ru' }, async ({ url }) => {
      const answer = await send(`${url}/${encodeURIComponent('заявки')}`);
      expect(answer.status).toBe(404);
      expect(answer.body.match(/Не найдено\./g)).toHaveLength(2); // the <title> and the <h1>
      expect(answer.body).toContain('Страницы /заявки нет.');
      const json = await send(`${url}/nowhere`, { headers: { accept: 'application/json' } });
      expect(json.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Страницы /nowhere нет. Меню вверху ведёт на все страницы.' } });
    });
  });
});

describe('the queries of /requests and /files', () => {
  const plan = (db: Db, sql: string) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ flows: '["a","b"]', state: 'rejected', beforeId: 10, limit: 51 }) as { detail: string }[]).map(
      (row) => row.detail,
    );

  it('walk the primary key (or files_state, which ends with the id) newest first, and sort nothing', async () => {
    await withTempDir((dir) => {
      const db = openStore(storePath(dir));
      try {
        const latest = plan(db, LATEST_OF_FLOWS_SQL);
        const files = plan(db, FILES_OF_FLOWS_SQL.any);
        const inState = plan(db, FILES_OF_FLOWS_SQL.inState);
        // A SCAN of the table without a temp B-tree is the walk down its rowid, stopped by LIMIT.
        expect(latest).toContain('SCAN submissions');
        expect(files).toContain('SEARCH files USING INTEGER PRIMARY KEY (rowid<?)');
        expect(inState).toContain('SEARCH files USING INDEX files_state (state=? AND rowid<?)');
        for (const steps of [latest, files, inState]) expect(steps.filter((step) => step.includes('TEMP B-TREE'))).toEqual([]);
      } finally {
        db.close();
      }
    });
  });
});
