/**
 * A scan's small files recorded in groups (`src/intake/recording-group.ts`) decide exactly as they
 * would one by one: a later file meets an earlier file of its scan as that file ended (recorded,
 * moved, its report written), whether they share a request or their whole content.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GROUP_FILES } from '../../src/intake/recording-group.js';
import { MAX_READ_ATTEMPTS } from '../../src/intake/recover.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, withIntake } from '../helpers/with-intake.js';

/** Drop files taken in the order given (their mtimes one second apart, in the past). */
async function dropInOrder(inbox: string, files: readonly [name: string, content: string][]): Promise<void> {
  const start = Date.now() - 600_000;
  for (const [i, [name, content]] of files.entries()) {
    const file = await dropFile(inbox, name, content);
    const at = new Date(start + i * 1000);
    await fs.utimes(file, at, at);
  }
}

const INVALID_INN = { ИНН: '7707083894' };

describe('intake: small files recorded in groups', () => {
  it('a scan of more small files than a group records them all, in order, each request once', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const count = GROUP_FILES * 2 + 3;
      await dropInOrder(
        f.inbox,
        Array.from({ length: count }, (_, i) => [`f${String(i).padStart(3, '0')}.csv`, requestCsv([requestRow(`R-${i}`)])] as [string, string]),
      );
      await f.intake.start();
      const files = f.files();
      expect(files).toHaveLength(count);
      expect(files.every((file) => file.state === 'archived' && file.requestCount === 1)).toBe(true);
      // Recorded in the order taken: the rows' ids follow the files' order.
      expect(f.submissions().map((s) => s.externalId)).toEqual(Array.from({ length: count }, (_, i) => `R-${i}`));
      expect(await f.list('processing')).toEqual([]);
    });
  });

  it('a later file of the group that sends an earlier one of its requests again, changed, meets it recorded', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await dropInOrder(f.inbox, [
        ['a.csv', requestCsv([requestRow('R-1'), requestRow('R-2')])],
        ['b.csv', requestCsv([requestRow('R-2', '7')])],
      ]);
      await f.intake.start();
      const [a, b] = [...f.files()].sort((x, y) => x.id - y.id);
      expect(a).toMatchObject({ originalName: 'a.csv', state: 'archived', requestCount: 2 });
      expect(b).toMatchObject({ originalName: 'b.csv', state: 'rejected' });
      expect(b!.report).toContain('EXTERNAL_ID_CONFLICT');
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-2']);
    });
  });

  it('the same content twice in one scan: the second is a duplicate of the first, archived by then', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const content = requestCsv([requestRow('R-1')]);
      await dropInOrder(f.inbox, [
        ['first.csv', content],
        ['other.csv', requestCsv([requestRow('R-2')])],
        ['again.csv', content],
      ]);
      await f.intake.start();
      const report = await f.rejectedReport('again.csv');
      expect(report.problems).toEqual([expect.objectContaining({ code: 'FILE_DUPLICATE' })]);
      expect(report.problems[0]!.message).toMatch(/same content as first\.csv .* now archived/);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-2']);
    });
  });

  it('the same rejected content twice in one scan: the first is rejected and moved with its report before the second is taken again', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const content = requestCsv([requestRow('R-1', '1', INVALID_INN)]);
      await dropInOrder(f.inbox, [
        ['bad.csv', content],
        ['bad-again.csv', content],
      ]);
      await f.intake.start();
      // A rejected content dropped again is taken again (after a mapping fix, say), not refused as a duplicate.
      const [row] = f.files();
      expect(f.files()).toHaveLength(1);
      expect(row).toMatchObject({ originalName: 'bad-again.csv', state: 'rejected' });
      const rejected = await f.list('rejected');
      const stored = rejected.filter((name) => !name.includes('.errors.'));
      expect(stored).toHaveLength(2);
      expect(stored.some((name) => name.endsWith('bad.csv'))).toBe(true);
      expect(stored.some((name) => name.endsWith('bad-again.csv'))).toBe(true);
      for (const name of stored) {
        const report = JSON.parse(await fs.readFile(path.join(f.inbox, 'rejected', `${name}.errors.json`), 'utf8')) as { problems: { code: string }[] };
        expect(report.problems.map((p) => p.code)).toEqual(['INN_INVALID']);
      }
      expect(await f.list('processing')).toEqual([]);
    });
  });

  it('a file of the group whose recording fails is rolled back alone, and is taken again, not refused as unreadable, however often it fails', async () => {
    await withIntake(NO_WAIT, async (f) => {
      f.db.exec(`CREATE TEMP TRIGGER disk_full BEFORE INSERT ON submissions WHEN NEW.external_id = 'R-2' BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`);
      await dropInOrder(f.inbox, [
        ['a.csv', requestCsv([requestRow('R-1')])],
        ['b.csv', requestCsv([requestRow('R-2')])],
        ['c.csv', requestCsv([requestRow('R-3')])],
      ]);
      await f.intake.start();
      const byName = () => Object.fromEntries(f.files().map((file) => [file.originalName, file]));
      expect(byName()['a.csv']).toMatchObject({ state: 'archived' });
      expect(byName()['c.csv']).toMatchObject({ state: 'archived' });
      // The read did not stop the daemon: it is not counted against the file.
      expect(byName()['b.csv']).toMatchObject({ state: 'processing', readAttempts: 0 });
      for (let i = 0; i < MAX_READ_ATTEMPTS + 1; i += 1) await f.intake.scanNow();
      expect(byName()['b.csv']).toMatchObject({ state: 'processing', readAttempts: 0 });

      f.db.exec('DROP TRIGGER disk_full');
      await f.intake.scanNow();
      expect(byName()['b.csv']).toMatchObject({ state: 'archived', requestCount: 1, readAttempts: 1 });
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-3', 'R-2']);
      expect(await f.list('processing')).toEqual([]);
    });
  });

  it('a file whose recording fails while the store also refuses to take its read count back is still taken again, not refused as unreadable', async () => {
    await withIntake(NO_WAIT, async (f) => {
      // A full disk refuses the recording and, some of the time, the small write that uncounts the read too.
      f.db.exec(`CREATE TEMP TRIGGER disk_full BEFORE INSERT ON submissions WHEN NEW.external_id = 'R-2' BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`);
      f.db.exec(
        `CREATE TEMP TRIGGER uncount_full BEFORE UPDATE OF read_attempts ON files WHEN NEW.read_attempts < OLD.read_attempts BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`,
      );
      await dropInOrder(f.inbox, [
        ['a.csv', requestCsv([requestRow('R-1')])],
        ['b.csv', requestCsv([requestRow('R-2')])],
      ]);
      await f.intake.start();
      const byName = () => Object.fromEntries(f.files().map((file) => [file.originalName, file]));
      expect(byName()['b.csv']).toMatchObject({ state: 'processing', readAttempts: 1 });
      // Each retry takes over the count its failed read left: it never grows, and the file is never refused.
      for (let i = 0; i < MAX_READ_ATTEMPTS + 1; i += 1) await f.intake.scanNow();
      expect(byName()['b.csv']).toMatchObject({ state: 'processing', readAttempts: 1 });

      f.db.exec('DROP TRIGGER disk_full');
      f.db.exec('DROP TRIGGER uncount_full');
      await f.intake.scanNow();
      expect(byName()['b.csv']).toMatchObject({ state: 'archived', requestCount: 1, readAttempts: 1 });
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-2']);
    });
  });
});
