/** The columns `suggest` profiles from a CSV sample and from a sheet: one per name, with the same warnings for both. */
import { describe, expect, it } from 'vitest';
import { readCsvSample } from '../../../src/mapping/suggest/read-csv-sample.js';
import { readSheetSample } from '../../../src/mapping/suggest/read-sheet-sample.js';
import { phraseEnglish } from '../../../src/mapping/suggest/summary-words.js';

const TABLE = [
  ['Номер', 'Товар', '', 'Товар', 'Кол-во'],
  ['ЗК-1', 'Бумага', 'лишнее', 'Ручка', '5'],
  ['ЗК-1', 'Картридж', '', 'Папка', '2'],
];

describe('the columns of a tabular sample', () => {
  it('from a CSV file: a named column each, a warning for a column with values and no name, and for a name given twice', () => {
    const sample = readCsvSample(TABLE.map((row) => row.join(';')).join('\n') + '\n', false);
    expect(sample.columns.map((c) => [c.name, c.values])).toEqual([
      ['Номер', ['ЗК-1', 'ЗК-1']],
      ['Товар', ['Бумага', 'Картридж']],
      ['Кол-во', ['5', '2']],
    ]);
    expect(sample.columns[0]!.groups).toEqual([0, 1]);
    expect(sample.warnings.map(phraseEnglish)).toEqual([
      'column 3 has values but no name: a mapping cannot name it',
      'the header names "Товар" twice: the daemon reads the first',
    ]);
  });

  it('from a sheet: the same, the warning naming the sheet', () => {
    const sample = readSheetSample(
      TABLE.map((cells, index) => ({ row: index + 1, cells: cells.map((cell) => (/^\d+$/.test(cell) ? Number(cell) : cell)) })),
      'Заявки',
    );
    expect(sample.columns.map((c) => [c.name, c.values])).toEqual([
      ['Номер', ['ЗК-1', 'ЗК-1']],
      ['Товар', ['Бумага', 'Картридж']],
      ['Кол-во', ['5', '2']],
    ]);
    expect(sample.warnings.map(phraseEnglish)).toEqual([
      'column 3 of Заявки has values but no name: a mapping cannot name it',
      'the header names "Товар" twice: the daemon reads the first',
    ]);
  });
});
