/**
 * Cross-check with a spreadsheet that is not ours: LibreOffice opens the workbook we write and
 * saves it as CSV, cells "as shown"; that must be the CSV file we write for the same records and
 * columns (after what a cell cannot hold: `cellText`). Installs Debian's libreoffice-calc-nogui
 * on demand (`ensure-libreoffice.sh`); where it cannot, the test is skipped, saying why.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { exportFormatSchema } from '../../src/config/export-format-schema.js';
import { renderExportBytes, renderExportFile } from '../../src/export/render-file.js';
import { MAX_CELL_CHARS, cellText } from '../../src/export/xlsx-cell.js';
import { withTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const ENSURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../helpers/ensure-libreoffice.sh');
/** LibreOffice's CSV filter: `,`, `"`, UTF-8 (76), from line 1, …, cells saved as shown (the 9th). */
const CSV_FILTER = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false';

/** The soffice path, or why there is none (installing it first where the script can). */
async function findSoffice(): Promise<{ soffice: string } | { reason: string }> {
  try {
    const { stdout } = await run('sh', [ENSURE], { timeout: 15 * 60_000 });
    return { soffice: stdout.trim() };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return { reason: stderr || String(error) };
  }
}

/** `file` saved as CSV by LibreOffice, parsed; a profile of its own, so parallel runs do not share one. */
async function libreOfficeCsv(soffice: string, file: string, dir: string): Promise<string[][]> {
  const profile = `file://${path.join(dir, 'lo-profile')}`;
  await run(soffice, [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', CSV_FILTER, '--outdir', dir, file], { timeout: 180_000 });
  return parse(fs.readFileSync(path.join(dir, `${path.parse(file).name}.csv`), 'utf8'), { relax_column_count: true }) as string[][];
}

const columns = {
  Заказ: { field: 'orderId' },
  Статус: { field: 'status', map: { shipped: 'Отгружен' } },
  Дата: { field: 'eventDate', date: 'DD.MM.YYYY HH:mm', timeZone: '+03:00' },
  День: { field: 'eventDate', date: 'YYYY-MM-DD', timeZone: 'UTC' },
  Сумма: { field: 'amount' },
  Примечание: { field: 'note', default: '-' },
};

const records = [
  { orderId: 'ORD-2026-000042', status: 'shipped', eventDate: '2026-06-12T07:15:00Z', amount: -1234.5, note: '=1+1' },
  { orderId: '0012345678', status: 'lost', eventDate: '2026-12-31', amount: 201, note: '=HYPERLINK("http://x","y")' },
  { orderId: 'ЗК-000102 "кавычки", запятая', status: 'delivered', eventDate: 'not a date', amount: 'n/a', note: 'a_x0041_b_x000D_c_x0009_d' },
  { orderId: 'bad\u0001char\uD800', status: 'shipped', eventDate: '2026-01-02T23:59:59+03:00', note: 'Ж'.repeat(MAX_CELL_CHARS + 5) },
];

describe('an xlsx file opened by LibreOffice', () => {
  it('shows the CSV file for the same records: header, text, numbers, dates in their pattern, formulas as text', { timeout: 20 * 60_000 }, async ({ skip }) => {
    const found = await findSoffice();
    if ('reason' in found) skip(`LibreOffice is not available, so the cross-check did not run: ${found.reason}`);
    const { soffice } = found as { soffice: string };
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'statuses.xlsx');
      fs.writeFileSync(file, await renderExportBytes(records, exportFormatSchema.parse({ format: 'xlsx', fileName: 'x.xlsx', columns }), 'batch'));
      const csvFormat = exportFormatSchema.parse({ fileName: 'x.csv', csv: { delimiter: ',', lineEnding: 'lf' }, columns });
      const expected = (parse(renderExportFile(records, csvFormat, 'batch').toString('utf8')) as string[][]).map((row) => row.map(cellText));

      const shown = await libreOfficeCsv(soffice, file, dir);
      expect(shown).toEqual(expected);
      // The cells that matter most, spelled out:
      expect(shown[1]).toEqual(['ORD-2026-000042', 'Отгружен', '12.06.2026 10:15', '2026-06-12', '-1234.5', '=1+1']);
      // Text that looks like a spreadsheet's escaped character stays that text (LibreOffice decodes
      // the control ones, Excel every one).
      expect(shown[3]![5]).toBe('a_x0041_b_x000D_c_x0009_d');
      expect(shown[4]![0]).toBe('bad\uFFFDchar\uFFFD');
      expect(shown[4]![5]).toHaveLength(MAX_CELL_CHARS);
    });
  });
});
