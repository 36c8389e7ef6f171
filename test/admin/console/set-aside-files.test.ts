/**
 * Files the intake sets aside before it claims them (an empty file, an exact re-copy of a file
 * taken before) are on the flow's files page and on `/attention`, HTML and JSON, with their codes,
 * as the operations guide says: real inbox folders, a real store, the console's real HTTP app.
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/shared/types.js';
import { send } from '../../helpers/console/http.js';
import { withConsoleServer } from '../../helpers/console/with-console-server.js';
import { NO_WAIT, requestCsv, requestRow } from '../../helpers/fixtures.js';
import { dropFile, withIntake } from '../../helpers/with-intake.js';

const JSON_ACCEPT = { accept: 'application/json' };

interface Listed {
  total: number;
  rows: { originalName: string; code: string; message: string; currentPath: string }[];
}

describe('files set aside before they were taken', () => {
  it('are listed with their codes on the files page and on /attention, an empty one judged as soon as two scans find it empty', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      const csv = requestCsv([requestRow('R-1')]);
      await dropFile(f.inbox, 'first.csv', csv);
      await f.intake.scanNow();
      await dropFile(f.inbox, 'again.csv', csv);
      await dropFile(f.inbox, 'empty.csv', '');
      // No emptyFileTimeoutMs wait: the second scan that finds the file empty (and stable) rejects it.
      await f.intake.scanNow();
      await f.intake.scanNow();
      expect(await f.list()).not.toContain('empty.csv');
      expect((await f.rejectedReport('empty.csv')).problems).toEqual([expect.objectContaining({ row: null, code: 'FILE_EMPTY' })]);
      expect((await f.rejectedReport('again.csv')).problems).toEqual([expect.objectContaining({ row: null, code: 'FILE_DUPLICATE' })]);

      await withConsoleServer({ db: f.db, clock: systemClock }, async (url) => {
        const attention = (await send(`${url}/attention`, { headers: JSON_ACCEPT })).json<{ total: number; flows: { setAsideFiles: Listed }[] }>();
        const listed = attention.flows[0]!.setAsideFiles;
        expect(listed.total).toBe(2);
        expect(listed.rows.map((r) => [r.originalName, r.code])).toEqual([
          ['empty.csv', 'FILE_EMPTY'],
          ['again.csv', 'FILE_DUPLICATE'],
        ]);
        expect(listed.rows[1]!.message).toContain('first.csv');
        expect(attention.total).toBe(2);

        const files = (await send(`${url}/flows/requests/files`, { headers: JSON_ACCEPT })).json<{ files: unknown[]; setAside: Listed }>();
        expect(files.files).toHaveLength(1);
        expect(files.setAside.rows.map((r) => r.code)).toEqual(['FILE_EMPTY', 'FILE_DUPLICATE']);
        expect(files.setAside.rows.every((r) => r.currentPath.includes('rejected'))).toBe(true);

        for (const page of ['/attention', '/flows/requests/files']) {
          const html = (await send(`${url}${page}`)).body;
          expect(html).toContain('empty.csv');
          expect(html).toContain('<code>FILE_EMPTY</code>');
          expect(html).toContain('again.csv');
          expect(html).toContain('<code>FILE_DUPLICATE</code>');
        }
        // Another state asked for: the set-aside files are not among them.
        expect((await send(`${url}/flows/requests/files?state=archived`, { headers: JSON_ACCEPT })).json<{ setAside: Listed }>().setAside.total).toBe(0);
      });
    });
  });
});
