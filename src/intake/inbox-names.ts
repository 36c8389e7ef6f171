/**
 * Names and folders of an inbox: which entries are ours to take, which are unsafe, where a file
 * goes while it is processed, archived or rejected. Pure, apart from `uniquePath` (one `existsSync`).
 */
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { isPeerMessageName, type ExchangeCodes } from '../exchange/message-names.js';
import { fitFileName, MAX_NAME_BYTES, truncateUtf8, utf8Length } from '../shared/file-name.js';
import { INBOX_DIRS } from '../shared/inbox-layout.js';
import { hasNoControlCharacters, replaceControlCharacters } from '../platform/contract.js';
import { REPORT_SUFFIX } from './report-files.js';

const RESERVED = new Set<string>(Object.values(INBOX_DIRS));

export function isReservedName(name: string): boolean {
  return RESERVED.has(name);
}

/**
 * A glob in picomatch's syntax (`*`, `?`, `[abc]`, `{csv,json}`), matched case-insensitively
 * (Windows-side ERPs write `.CSV` and `.csv` alike) and against dot files too, so that the
 * `exclude` list, not the engine, decides about them.
 */
export function compileGlob(pattern: string): (name: string) => boolean {
  return picomatch(pattern, { nocase: true, dot: true });
}

export interface NameFilter {
  include: readonly string[];
  exclude: readonly string[];
}

/**
 * The names a flow takes from its inbox: for an exchange flow (`enterpriseData`), 1C's messages to
 * it and nothing else (the folder is 1C's too: our reply, 1C's folder test); otherwise its
 * include/exclude lists.
 */
export function flowNameMatcher(flow: { intake: NameFilter; enterpriseData?: ExchangeCodes | undefined }): (name: string) => boolean {
  const exchange = flow.enterpriseData;
  if (exchange) return (name) => isPeerMessageName(name, exchange);
  return createNameMatcher(flow.intake);
}

/** A matcher for a flow's include/exclude lists: included by one pattern and excluded by none. */
export function createNameMatcher(filter: NameFilter): (name: string) => boolean {
  const include = filter.include.map(compileGlob);
  const exclude = filter.exclude.map(compileGlob);
  return (name) => include.some((matches) => matches(name)) && !exclude.some((matches) => matches(name));
}

/**
 * A name we refuse to handle: a path separator, `..`, or a control character (C0, DEL, C1) or a
 * bidirectional override, the same characters the contract refuses in ids and names. `readdir`
 * never returns `/`, but a backslash name from an SMB share or a `..` trick is refused before any
 * path is built from it, and `invoice\u202Evsc.exe` does not reach the log, the reports and the
 * console looking like `invoiceexe.csv`.
 */
export function isUnsafeName(name: string): boolean {
  return name.length === 0 || /[/\\]/.test(name) || name.includes('..') || !hasNoControlCharacters(name);
}

export type DoneMarkerMode = 'none' | 'done' | 'ok' | 'any';

/** Marker names that may announce `name` as complete. */
export function markerNamesFor(name: string, mode: DoneMarkerMode): string[] {
  if (mode === 'none') return [];
  if (mode === 'any') return [`${name}.done`, `${name}.ok`];
  return [`${name}.${mode}`];
}

/** The data file a marker announces, or null when `name` is not a marker in this mode. */
export function markedNameOf(name: string, mode: DoneMarkerMode): string | null {
  if (mode === 'none') return null;
  for (const ext of mode === 'any' ? ['done', 'ok'] : [mode]) {
    const suffix = `.${ext}`;
    if (name.length > suffix.length && name.endsWith(suffix)) return name.slice(0, -suffix.length);
  }
  return null;
}

/**
 * Names we make inside processing/, archive/ and rejected/ are capped so that every name derived
 * from them still fits the 255-byte limit of a file name: the report beside the file
 * (`<name>.errors.json`, the longest report suffix), the temp file its atomic write goes through,
 * and the `-2`, `-3`… that `uniquePath` inserts. An inbox name can itself be 255 bytes; uncapped,
 * `<id>-<name>` would fail with ENAMETOOLONG on every scan, for ever.
 */
const LONGEST_REPORT_SUFFIX_BYTES = Math.max(...Object.values(REPORT_SUFFIX).map(utf8Length));
/**
 * Room for what the report writer adds to a report's name for its temp file: `.<pid>.tmp` today
 * (at most 12 bytes); 32 leaves room for a leading dot and a random suffix.
 */
const REPORT_TEMP_RESERVE_BYTES = 32;
/** Longest name of a file we store (its reports and their temp files then fit). */
const MAX_STORED_FILE_BYTES = MAX_NAME_BYTES - LONGEST_REPORT_SUFFIX_BYTES - REPORT_TEMP_RESERVE_BYTES;
/** Room kept for `uniquePath`'s `-<n>` (up to `-9999999`; past it the stem is cut further). */
const UNIQUE_SUFFIX_BYTES = 8;
/** Longest name `storedName` and `rejectedName` return (203 bytes). */
export const MAX_STORED_NAME_BYTES = MAX_STORED_FILE_BYTES - UNIQUE_SUFFIX_BYTES;

/**
 * Name inside processing/archive/rejected of a file with a row: `<id>-<original name>`, shortened
 * (deterministically, `fitFileName`) when too long; the row keeps the full original name.
 */
export function storedName(id: number, originalName: string): string {
  return fitFileName(`${id}-${originalName}`, MAX_STORED_NAME_BYTES);
}

/**
 * The row id and original name back from a `storedName`, or null for a name we did not make. For
 * a shortened name, `originalName` is the shortened rest (only a row knows the full name).
 */
export function parseStoredName(name: string): { id: number; originalName: string } | null {
  const match = /^(\d+)-(.+)$/s.exec(name);
  return match ? { id: Number(match[1]), originalName: match[2]! } : null;
}

/** Name inside rejected/ of an entry rejected before it got a row: `<YYYYMMDD-HHMMSS>-<name>`, shortened like `storedName`. */
export function rejectedName(stamp: string, name: string): string {
  return fitFileName(`${stamp}-${replaceControlCharacters(name.replace(/[/\\]/g, '_'))}`, MAX_STORED_NAME_BYTES);
}

/** `dir/name`, or `dir/name` with `-2`, `-3`… before the extension when taken (with its reports). */
export function uniquePath(dir: string, name: string): string {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n += 1) {
    const suffix = `-${n}${ext}`;
    const candidate = path.join(dir, n === 1 ? name : `${truncateUtf8(stem, MAX_STORED_FILE_BYTES - utf8Length(suffix))}${suffix}`);
    if (!fs.existsSync(candidate) && !fs.existsSync(`${candidate}.errors.json`)) return candidate;
  }
}
