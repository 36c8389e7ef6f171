/**
 * Error reports that cannot be written at first (a full disk, a folder in the way) are not lost:
 * a recorded file's report is kept in the store (`files.report_pending`) and written again by
 * each scan until it is on disk; an entry rejected before it has a row stays in the inbox until its
 * report is written.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejectedName, storedName } from '../../src/intake/inbox-names.js';
import { localDate, localStamp } from '../../src/shared/local-time.js';
import { ensureInboxDirs } from '../../src/intake/intake-context.js';
import { rejectUnclaimed } from '../../src/intake/take-file.js';
import { getFile } from '../../src/store/files.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, withIntake, type IntakeFixture } from '../helpers/with-intake.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * Drop a partly bad file whose report cannot be written: a folder sits where its `.errors.csv`
 * goes (`uniquePath` looks only at `.errors.json`, so the file still gets this name). Returns
 * where the file is archived.
 */
async function dropWithReportBlocked(f: IntakeFixture): Promise<string> {
  const target = path.join(f.inbox, 'archive', localDate(Date.now()), storedName(1, 'mixed.csv'));
  await fs.mkdir(`${target}.errors.csv`, { recursive: true });
  await dropFile(f.inbox, 'mixed.csv', requestCsv([requestRow('R-1'), requestRow('R-2', '1', { ИНН: '7707083894' })]));
  return target;
}

async function expectReportWritten(target: string): Promise<void> {
  const json = JSON.parse(await fs.readFile(`${target}.errors.json`, 'utf8'));
  expect(json).toMatchObject({ file: 'mixed.csv', problems: [expect.objectContaining({ row: 3, code: 'INN_INVALID' })] });
  expect((await fs.stat(`${target}.errors.csv`)).isFile()).toBe(true);
  expect(await fs.readFile(`${target}.errors.csv`, 'utf8')).toContain('INN_INVALID');
}

describe('intake: a report that could not be written', () => {
  it('is kept in the store, logged as REPORT_WRITE_FAILED, and written by the next scan, which clears the flag', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      const target = await dropWithReportBlocked(f);
      await f.intake.scanNow();

      const [row] = f.files();
      expect(row).toMatchObject({ state: 'archived', currentPath: target, reportPending: 1 });
      await fs.access(target);
      expect(await f.list('processing')).toEqual([]);
      expect(f.logs()).toContainEqual(expect.objectContaining({ level: 'error', code: 'REPORT_WRITE_FAILED', fileId: row!.id }));

      // Still in the way: the next scan fails again and keeps the flag.
      await f.intake.scanNow();
      expect(getFile(f.db, row!.id)!.reportPending).toBe(1);

      await fs.rm(`${target}.errors.csv`, { recursive: true });
      await f.intake.scanNow();
      expect(getFile(f.db, row!.id)!.reportPending).toBe(0);
      await expectReportWritten(target);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1']);
    });
  });

  it('is written after a restart, from the store alone', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      const target = await dropWithReportBlocked(f);
      await f.intake.scanNow();
      expect(f.files()[0]).toMatchObject({ state: 'archived', reportPending: 1 });
      await f.intake.stop();
      f.db.close();

      await fs.rm(`${target}.errors.csv`, { recursive: true });
      const again = f.reopen();
      await again.intake.start();
      expect(f.files()[0]).toMatchObject({ state: 'archived', reportPending: 0 });
      await expectReportWritten(target);
    });
  });

  it('of an entry rejected before it had a row: the entry stays in the inbox until its report is written', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const now = Date.now();
      const ctx = f.context({ clock: () => now });
      await ensureInboxDirs(ctx.dirs);
      const file = await dropFile(f.inbox, 'empty.csv', '');
      const target = path.join(ctx.dirs.rejected, rejectedName(localStamp(now), 'empty.csv'));
      await fs.mkdir(`${target}.errors.csv`);
      const problem = { code: 'FILE_EMPTY', message: 'empty.csv is empty (0 bytes)' } as const;

      await expect(rejectUnclaimed(ctx, { path: file, name: 'empty.csv' }, problem)).rejects.toMatchObject({ code: 'REPORT_WRITE_FAILED' });
      await fs.access(file);
      // Nothing moved, and no half report left behind to push the next try onto another name.
      const exists = (p: string) =>
        fs.lstat(p).then(
          () => true,
          () => false,
        );
      expect([await exists(target), await exists(`${target}.errors.json`)]).toEqual([false, false]);

      await fs.rm(`${target}.errors.csv`, { recursive: true });
      expect(await rejectUnclaimed(ctx, { path: file, name: 'empty.csv' }, problem)).toBe(target);
      expect(await exists(file)).toBe(false);
      expect((await fs.lstat(target)).isFile()).toBe(true);
      expect((await fs.lstat(`${target}.errors.csv`)).isFile()).toBe(true);
      expect(JSON.parse(await fs.readFile(`${target}.errors.json`, 'utf8')).problems).toEqual([expect.objectContaining({ code: 'FILE_EMPTY' })]);
    });
  });
});

describe('intake: the log line of a recorded file', () => {
  it('names its first problems with their row, field, code and message, as the report does', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      await dropFile(f.inbox, 'mixed.csv', requestCsv([requestRow('R-1'), requestRow('R-2', '1', { ИНН: '7707083894' })]));
      await f.intake.scanNow();
      await waitUntil(() => f.logs().some((line) => line.msg === 'file recorded'), 'the file recorded');
      const line = f.logs().find((l) => l.msg === 'file recorded')!;
      expect(line).toMatchObject({
        level: 'info',
        problems: 1,
        firstProblems: [
          { code: 'INN_INVALID', row: 3, field: 'customer.inn', message: expect.stringMatching(/^Row 3 of mixed\.csv: customer\.inn "7707083894"/) },
        ],
      });
    });
  });
});

describe('intake: the log line of a rejected file', () => {
  it('is a warning: a CSV saved as UTF-16 (Excel\'s "Unicode Text") is rejected saying what to save it as', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      const text = requestCsv([requestRow('R-1')]).replaceAll(';', '\t');
      await fs.writeFile(path.join(f.inbox, 'unicode.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
      await f.intake.scanNow();
      await waitUntil(() => f.logs().some((line) => line.msg === 'file rejected'), 'the file rejected');
      const line = f.logs().find((l) => l.msg === 'file rejected')!;
      expect(line).toMatchObject({
        level: 'warn',
        state: 'rejected',
        firstProblems: [
          {
            code: 'FILE_UNREADABLE',
            row: null,
            message: expect.stringContaining('is UTF-16 (it starts with a UTF-16 byte order mark): save it as windows-1251 or UTF-8'),
          },
        ],
      });
      expect(f.submissions()).toEqual([]);
      expect((await f.rejectedReport('unicode.csv')).problems).toEqual([expect.objectContaining({ code: 'FILE_UNREADABLE' })]);
    });
  });
});
