/**
 * Reading back the workbooks the exporter writes, with readers that are not ours: exceljs for the
 * cells (what a spreadsheet sees: values, types, number formats), yauzl for the zip itself.
 */
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';

/** One cell as a reader sees it. */
export interface ReadCell {
  type: 'string' | 'number' | 'date' | 'formula' | 'empty' | 'other';
  value: unknown;
  numFmt: string | undefined;
}

/** The first sheet: its name, how many sheets there are, and its rows of cells (row 1 first). */
export async function readWorkbook(bytes: Buffer): Promise<{ sheets: number; name: string; rows: ReadCell[][] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: ReadCell[][] = [];
  for (let r = 1; r <= sheet.rowCount; r += 1) {
    const row = sheet.getRow(r);
    const cells: ReadCell[] = [];
    for (let c = 1; c <= sheet.columnCount; c += 1) cells.push(readCell(row.getCell(c)));
    rows.push(cells);
  }
  return { sheets: workbook.worksheets.length, name: sheet.name, rows };
}

function readCell(cell: ExcelJS.Cell): ReadCell {
  const numFmt = cell.numFmt || undefined;
  switch (cell.type) {
    case ExcelJS.ValueType.String:
      return { type: 'string', value: cell.value, numFmt };
    case ExcelJS.ValueType.Number:
      return { type: 'number', value: cell.value, numFmt };
    case ExcelJS.ValueType.Date:
      return { type: 'date', value: cell.value, numFmt };
    case ExcelJS.ValueType.Formula:
      return { type: 'formula', value: cell.formula, numFmt };
    case ExcelJS.ValueType.Null:
      return { type: 'empty', value: null, numFmt };
    default:
      return { type: 'other', value: cell.value, numFmt };
  }
}

/** The cells' values of every row, for short assertions. */
export const values = (rows: ReadCell[][]): unknown[][] => rows.map((row) => row.map((cell) => cell.value));

/** A zip entry's name, DOS date and time fields, extra fields, and its uncompressed bytes. */
export interface ZipEntryInfo {
  name: string;
  dosDate: number;
  dosTime: number;
  extraFieldIds: number[];
  bytes: Buffer;
}

/** Every entry of a zip, in the order of its central directory. */
export function zipEntries(zip: Buffer): Promise<ZipEntryInfo[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const entries: ZipEntryInfo[] = [];
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({
              name: entry.fileName,
              dosDate: entry.lastModFileDate,
              dosTime: entry.lastModFileTime,
              extraFieldIds: entry.extraFields.map((field) => field.id),
              bytes: Buffer.concat(chunks),
            });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}
