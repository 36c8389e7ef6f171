/** Which columns an export file has, in order: the one rule CSV and xlsx files share. Pure. */
import type { ColumnSpec, ExportFormat } from '../config/export-format-schema.js';

/** Header name → column; by default every field of the records, in order of first appearance. */
export function resolveColumns(format: ExportFormat, records: readonly Record<string, unknown>[]): [string, ColumnSpec][] {
  if (format.columns) return Object.entries(format.columns);
  const names: string[] = [];
  for (const record of records) for (const key of Object.keys(record)) if (!names.includes(key)) names.push(key);
  return names.map((name) => [name, { field: name, timeZone: 'local' }]);
}
