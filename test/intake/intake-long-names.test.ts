/**
 * Inbox names up to the kernel's 255 bytes: every name the intake derives from one (the stored
 * `<id>-<name>`, the rejected `<stamp>-<name>`, the `-2` of a taken name, the `.errors.json`
 * beside it) fits in 255 bytes, so such a file is taken exactly once instead of failing with
 * ENAMETOOLONG on every scan.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_STORED_NAME_BYTES, parseStoredName, rejectedName, storedName, uniquePath } from '../../src/intake/inbox-names.js';
import { MAX_NAME_BYTES, utf8Length } from '../../src/shared/file-name.js';
import { getFile } from '../../src/store/files.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { claimIntoProcessing, dropFile, withIntake } from '../helpers/with-intake.js';
import { waitUntil } from '../helpers/wait-until.js';

/** 250 bytes: 123 two-byte Cyrillic letters and `.csv`. */
const CYRILLIC_250 = `${'я'.repeat(123)}.csv`;
/** 250 bytes of ASCII. */
const ASCII_250 = `${'a'.repeat(246)}.csv`;
/** The worst case: 255 bytes, with a four-byte character where a cut could split it. */
const MIXED_255 = `${'я'.repeat(60)}${'😀'.repeat(20)}${'b'.repeat(51)}.csv`;
/** The longest name derived from a stored one: its JSON report's temp file as the report writer names it today (`.<name>.<pid>.tmp`, pid up to 2^22). */
const longestDerived = (name: string) => `.${name}.errors.json.4194304.tmp`;

describe('stored names of long inbox names', () => {
  it.each([
    ['Cyrillic, 250 bytes', CYRILLIC_250],
    ['ASCII, 250 bytes', ASCII_250],
    ['mixed, 255 bytes', MIXED_255],
  ])("%s: the stored, rejected and -N names, with their reports and the reports' temp files, fit in 255 bytes", (_label, name) => {
    expect(utf8Length(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    for (const id of [1, 123_456, Number.MAX_SAFE_INTEGER]) {
      const stored = storedName(id, name);
      expect(utf8Length(stored)).toBeLessThanOrEqual(MAX_STORED_NAME_BYTES);
      expect(utf8Length(longestDerived(stored))).toBeLessThanOrEqual(MAX_NAME_BYTES);
      // Deterministic (recovery matches a file in processing/ to its row by recomputing it), keeps the id and the extension.
      expect(storedName(id, name)).toBe(stored);
      expect(parseStoredName(stored)?.id).toBe(id);
      expect(stored.endsWith('.csv')).toBe(true);
      expect(Buffer.from(stored, 'utf8').toString('utf8')).toBe(stored); // no character cut in two
    }
    const rejected = rejectedName('20260612-120000', name);
    expect(utf8Length(longestDerived(rejected))).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(rejected.startsWith('20260612-120000-')).toBe(true);
  });

  it('leaves a name that fits as it was, and keeps two long names that share a prefix apart', () => {
    expect(storedName(42, 'orders.csv')).toBe('42-orders.csv');
    expect(rejectedName('20260612-120000', 'a\\b.csv')).toBe('20260612-120000-a_b.csv');
    // A control character or a bidi override never reaches a name the daemon makes.
    expect(rejectedName('20260612-120000', 'invoice\u202evsc.csv')).toBe('20260612-120000-invoice_vsc.csv');
    expect(rejectedName('20260612-120000', 'line\nbreak\u0085.csv')).toBe('20260612-120000-line_break_.csv');
    const a = storedName(1, `${'я'.repeat(124)}1.csv`);
    const b = storedName(1, `${'я'.repeat(124)}2.csv`);
    expect(a).not.toBe(b);
  });

  it("uniquePath's -2, -3 of a shortened name still leave room for the reports", async () => {
    await withTempDir(async (dir) => {
      const stored = storedName(7, MIXED_255);
      const taken: string[] = [];
      for (let i = 0; i < 3; i++) {
        const p = uniquePath(dir, stored);
        await fs.writeFile(p, '');
        await fs.writeFile(`${p}.errors.json`, '');
        taken.push(path.basename(p));
      }
      expect(taken).toEqual([stored, expect.stringMatching(/-2\.csv$/), expect.stringMatching(/-3\.csv$/)]);
      for (const name of taken) expect(utf8Length(longestDerived(name))).toBeLessThanOrEqual(MAX_NAME_BYTES);
    });
  });
});

describe('intake: a file with a 250-byte name is taken exactly once', () => {
  it.each([
    ['Cyrillic', CYRILLIC_250],
    ['ASCII', ASCII_250],
  ])('%s: archived with its report beside it under a shortened name; the row keeps the full name', async (_label, name) => {
    await withIntake(NO_WAIT, async (f) => {
      await dropFile(f.inbox, name, requestCsv([requestRow('R-1'), requestRow('R-2', '1', { ИНН: '7707083894' })]));
      await f.intake.start();
      const [row] = f.files();
      expect(f.files()).toHaveLength(1);
      expect(row).toMatchObject({ originalName: name, state: 'archived', requestCount: 1, problemCount: 1 });
      expect(path.basename(row!.currentPath!)).toBe(storedName(row!.id, name));
      await fs.access(row!.currentPath!);
      const report = JSON.parse(await fs.readFile(`${row!.currentPath}.errors.json`, 'utf8'));
      expect(report.file).toBe(name);
      expect(report.problems).toEqual([expect.objectContaining({ code: 'INN_INVALID' })]);
      expect(await f.list('')).not.toContain(name);
      expect(await f.list('processing')).toEqual([]);

      await f.intake.scanNow();
      expect(f.files()).toHaveLength(1);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1']);
    });
  });

  it.each([
    ['Cyrillic', CYRILLIC_250],
    ['ASCII', ASCII_250],
  ])('%s: an empty file is rejected once, with its report, under a shortened <stamp>-<name>', async (_label, name) => {
    await withIntake({ ...NO_WAIT, emptyFileTimeoutMs: 1 }, async (f) => {
      await dropFile(f.inbox, name, '');
      const past = new Date(Date.now() - 60_000);
      await fs.utimes(path.join(f.inbox, name), past, past);
      await f.intake.start();
      // The scan at start sees it empty; the next one (scheduled at once: no wait is left) rejects it.
      await waitUntil(async () => (await f.list('rejected')).length === 3, 'the empty file to be rejected');
      const rejected = await f.list('rejected');
      const json = rejected.find((n) => n.endsWith('.errors.json'))!;
      expect(utf8Length(json)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      const report = JSON.parse(await fs.readFile(path.join(f.inbox, 'rejected', json), 'utf8'));
      expect(report).toMatchObject({ file: name, problems: [expect.objectContaining({ code: 'FILE_EMPTY' })] });
      expect(await f.list('')).toEqual(rejected.map((n) => `rejected/${n}`));
      await f.intake.scanNow();
      expect(await f.list('rejected')).toHaveLength(3);
    });
  });

  it('the same content under a 255-byte name is rejected as FILE_DUPLICATE once', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const csv = requestCsv([requestRow('R-1')]);
      await f.intake.start();
      await dropFile(f.inbox, 'first.csv', csv);
      await f.intake.scanNow();
      await dropFile(f.inbox, MIXED_255, csv);
      await f.intake.scanNow();
      const rejected = await f.list('rejected');
      expect(rejected).toHaveLength(3);
      const report = await f.rejectedReport();
      expect(report).toMatchObject({ file: MIXED_255, problems: [expect.objectContaining({ code: 'FILE_DUPLICATE' })] });
      expect(await f.list('')).not.toContain(MIXED_255);
    });
  });

  it('after a crash between claim and recording, recovery matches the shortened name in processing/ to its row', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const content = requestCsv([requestRow('R-5')]);
      const row = await claimIntoProcessing(f, MIXED_255, content);
      const report = await f.intake.recover();
      expect(report).toMatchObject({ reprocessed: 1, orphansTaken: 0, failures: 0 });
      expect(getFile(f.db, row.id)).toMatchObject({ state: 'archived', originalName: MIXED_255 });
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-5']);
    });
  });
});
