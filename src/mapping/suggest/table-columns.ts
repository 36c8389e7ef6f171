/**
 * The columns of a tabular sample (a CSV file's, a sheet's), as `suggest` profiles them: one per
 * named header cell, with its values, one per data row. A column with values but no name, and a
 * name given twice, are warnings; the daemon reads the first column of a name, and so does this.
 */
import { shown } from './shown.js';
import type { SampleColumn } from './types.js';
import { phrase, type Phrase } from './summary-words.js';

/**
 * `names`: the header's cells, trimmed; `rows`: each data row's cells as trimmed text (`''` where
 * empty or missing); `where`: how a warning places a column beyond its number (` of Заявки`).
 */
export function tableColumns(names: readonly string[], rows: readonly (readonly string[])[], warnings: Phrase[], sheet?: string): SampleColumn[] {
  const columns: SampleColumn[] = [];
  const seen = new Set<string>();
  names.forEach((name, index) => {
    const values = rows.map((row) => row[index] ?? '');
    if (name === '') {
      if (values.some((value) => value !== '')) {
        warnings.push(
          sheet === undefined
            ? phrase('summary.warn.unnamedColumn', { column: index + 1 })
            : phrase('summary.warn.unnamedSheetColumn', { column: index + 1, sheet }),
        );
      }
      return;
    }
    if (seen.has(name)) {
      warnings.push(phrase('summary.warn.nameTwice', { name: shown(name) }));
      return;
    }
    seen.add(name);
    columns.push({ name, level: 'line', values, groups: rows.map((_, row) => row) });
  });
  return columns;
}
