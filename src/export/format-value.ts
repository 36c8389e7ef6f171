/**
 * Turning one field of an export record into what the ERP reads: `date` formatting in a chosen
 * time zone, value `map`, `default`. Pure.
 */
import type { ColumnSpec } from '../config/export-format-schema.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Format a timestamp (ISO 8601 text or epoch ms) with tokens YYYY MM DD HH mm ss, in `UTC`,
 * `local` or a fixed offset (`+03:00`). A bare date (`2026-06-12`) is a calendar day, not an
 * instant, and is never shifted by the zone. A value that is not a date is returned as text.
 */
export function formatDate(value: unknown, pattern: string, timeZone = 'local'): string {
  const parts = dateParts(value, timeZone);
  if (parts) return applyPattern(pattern, parts);
  return value === undefined || value === null ? '' : String(value as string);
}

/**
 * The calendar fields of a timestamp (ISO 8601 text or epoch ms) in `timeZone`, or of a bare date
 * (`2026-06-12`, never shifted, at 00:00:00); null when the value is not a date. What `formatDate`
 * shows, and what a workbook's date cell holds.
 */
export function dateParts(value: unknown, timeZone = 'local'): DateParts | null {
  if (typeof value === 'string') {
    const day = DATE_ONLY.exec(value);
    if (day) return { YYYY: day[1]!, MM: day[2]!, DD: day[3]!, HH: '00', mm: '00', ss: '00' };
  }
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) return null;
  return timeZone === 'local' ? localParts(ms) : utcParts(ms + offsetMs(timeZone));
}

/** `+03:00` → 10 800 000; `UTC`/`Z` → 0. */
export function offsetMs(timeZone: string): number {
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(timeZone);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return (match[1] === '-' ? -1 : 1) * minutes * 60_000;
}

/** Zero-padded calendar fields, by the pattern token that shows each. */
export type DateParts = Record<'YYYY' | 'MM' | 'DD' | 'HH' | 'mm' | 'ss', string>;
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function utcParts(ms: number): DateParts {
  const d = new Date(ms);
  return {
    YYYY: pad(d.getUTCFullYear(), 4),
    MM: pad(d.getUTCMonth() + 1),
    DD: pad(d.getUTCDate()),
    HH: pad(d.getUTCHours()),
    mm: pad(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
  };
}

function localParts(ms: number): DateParts {
  const d = new Date(ms);
  return {
    YYYY: pad(d.getFullYear(), 4),
    MM: pad(d.getMonth() + 1),
    DD: pad(d.getDate()),
    HH: pad(d.getHours()),
    mm: pad(d.getMinutes()),
    ss: pad(d.getSeconds()),
  };
}

/** The tokens of a `date` pattern; everything else in it is shown as written. */
export const DATE_TOKENS = /YYYY|MM|DD|HH|mm|ss/g;

function applyPattern(pattern: string, parts: DateParts): string {
  return pattern.replace(DATE_TOKENS, (token) => parts[token as keyof DateParts]);
}

/** A record value as text: arrays are joined with `; ` (reasons), objects become JSON. */
export function valueToText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(valueToText).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | boolean);
}

const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * One cell of one column for one record, with what it is. `text` is always what a CSV file shows;
 * a workbook types the cell by `kind`:
 * - `date`: the column formats a date (`date:`) and the value is one (`parts`, in the column's zone);
 * - `number`: the stored value is a finite number that neither `date` nor `map` turned into text;
 * - `text`: anything else, a `default` and every `map`ped value included.
 */
export type CellValue =
  { kind: 'text'; text: string } | { kind: 'number'; text: string; value: number } | { kind: 'date'; text: string; parts: DateParts; pattern: string };

export function formatCellValue(record: Record<string, unknown>, column: ColumnSpec): CellValue {
  const value = record[column.field];
  if (isEmpty(value)) return { kind: 'text', text: column.default ?? '' };
  const pattern = column.date;
  const text = pattern ? formatDate(value, pattern, column.timeZone) : valueToText(value);
  if (column.map && Object.hasOwn(column.map, text)) return { kind: 'text', text: column.map[text]! };
  if (pattern) {
    const parts = dateParts(value, column.timeZone);
    return parts ? { kind: 'date', text, parts, pattern } : { kind: 'text', text };
  }
  if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'number', text, value };
  return { kind: 'text', text };
}

/** The cell text of one column for one record (CSV). */
export function formatCell(record: Record<string, unknown>, column: ColumnSpec): string {
  return formatCellValue(record, column).text;
}

/**
 * The value of one column for one record (JSON): the stored value unchanged unless the column
 * formats it (`date`, `map`) or fills it (`default`), which make it text.
 */
export function formatJsonValue(record: Record<string, unknown>, column: ColumnSpec): unknown {
  const value = record[column.field];
  if (isEmpty(value)) return column.default ?? null;
  if (!column.date && !column.map) return value;
  return formatCell(record, column);
}
