/**
 * `suggestMapping`: a sample export's bytes → a mapping to start from. Pure (no file, no clock):
 * the CLI hands it a file's bytes, the console an upload. What it does, in order:
 *
 * 1. read the sample: format, encoding, delimiter, header line, columns (`read-sample.ts`; a
 *    workbook's rows are read by `suggest-file.ts` and handed to `suggestFromTable`);
 * 2. profile each column's values (`profile-column.ts`);
 * 3. CSV, XLSX: choose the column that groups rows into requests, then learn which columns are the
 *    same on every row of a request and which number its lines (`choose-grouping.ts`); a group
 *    column left blank below a request's first row is a grouped report: fill-down;
 * 4. decide decimal commas from every numeric column (`decide-numbers.ts`);
 * 5. match columns to target fields by name and content (`match-fields.ts`);
 * 6. write the commented YAML (`write-yaml.ts`).
 */
import type { MappingKind } from '../../config/mapping-schema.js';
import { chooseGroupKey, type GroupKey } from './choose-grouping.js';
import { decideNumbers, type NumberStyle } from './decide-numbers.js';
import { matchFields } from './match-fields.js';
import type { ScoreContext } from './score-column.js';
import { profileColumn, regroup, type ColumnProfile } from './profile-column.js';
import { detectFillDown, fillDownSample } from './fill-sample.js';
import { readSample } from './read-sample.js';
import type { FieldSuggestion, SampleColumn, SampleTable } from './types.js';
import { keyTargetOf, ONE_OF, targetsOf } from './targets.js';
import { CONFIDENCE_THRESHOLD, type Detected, type MappingSuggestion } from './types.js';
import { buildMapping, writeSuggestionYaml, type MappingParts } from './write-yaml.js';
import { shown } from './shown.js';
import { phrase, type Phrase } from './summary-words.js';

export interface SuggestOptions {
  /** Default `requests`. */
  kind?: MappingKind;
  /** The bytes are only the start of the file (the CLI reads at most a few MiB of a CSV). */
  truncated?: boolean;
}

/** Suggest a mapping for the sample `bytes` of the file named `fileName`. Throws `FILE_UNREADABLE` for an empty file or broken JSON. */
export function suggestMapping(bytes: Buffer, fileName: string, options: SuggestOptions = {}): MappingSuggestion {
  return suggestFromTable(readSample(bytes, fileName, options.truncated), fileName, options);
}

/** Suggest a mapping for a sample already read into columns (a CSV or JSON's bytes, a workbook's rows). */
export function suggestFromTable(sampled: SampleTable, fileName: string, options: SuggestOptions = {}): MappingSuggestion {
  const kind = options.kind ?? 'requests';
  const tabular = sampled.format === 'csv' || sampled.format === 'xlsx';
  const { table, profiles, key, groupCount, ...grouped } = tabular ? groupRows(sampled, kind) : ungrouped(sampled);
  const numbers = decideNumbers(profiles, table.delimiter?.value);
  const hasLines = tabular ? table.columns.length > 0 : table.itemsPath?.value !== undefined;
  const { fields, used } = matchFields(targetsOf(kind), profiles, scoreContextOf(table, profiles, key, kind), hasLines);
  const { groupBy, groupByGuess } = decideGroupBy(key);
  const fillDown = groupBy === undefined ? undefined : grouped.fillDown;
  const unusedColumns = listUnusedColumns(table, used, groupBy);
  const warnings = gatherWarnings(table, profiles, key, numbers, kind);
  const complete = table.columns.length > 0 && hasLines && (!tabular || groupBy !== undefined) && fieldsComplete(fields, kind);
  const dates = describeDates(profiles);

  const parts: MappingParts = {
    kind,
    fileName,
    sample: table,
    decimalComma: numbers.decimalComma,
    thousandsReason: numbers.thousandsReason,
    groupBy,
    groupByGuess,
    fillDown,
    fields,
    unusedColumns,
    warnings,
  };
  const { columns, ...sample } = table;
  return {
    kind,
    fileName,
    yaml: writeSuggestionYaml(parts),
    mapping: buildMapping(parts),
    sample: { ...sample, columns: columns.map((column) => column.name) },
    decimalComma: numbers.decimalComma,
    thousands: numbers.thousands,
    ...(groupBy ? { groupBy } : {}),
    ...(fillDown ? { fillDown } : {}),
    groupCount,
    dates,
    fields,
    unusedColumns,
    warnings,
    complete,
  };
}

/** A sample's columns profiled, and (CSV, XLSX) grouped into requests. */
interface GroupedSample {
  /** The sample, filled down when it is a grouped report. */
  table: SampleTable;
  profiles: ColumnProfile[];
  key: GroupKey | undefined;
  fillDown: Detected<boolean> | undefined;
  /** Requests counted in the sample (JSON: its records). */
  groupCount: number;
}

/** JSON: each record is its own request. */
function ungrouped(table: SampleTable): GroupedSample {
  return { table, profiles: table.columns.map(profileColumn), key: undefined, fillDown: undefined, groupCount: table.rowCount };
}

/**
 * CSV, XLSX: the column that groups rows into requests; a group column left blank below a
 * request's first row is a grouped report, whose sample is filled down and grouped again.
 */
function groupRows(sampled: SampleTable, kind: MappingKind): GroupedSample {
  const noun = kind === 'requests' ? 'request' : 'order';
  let table = sampled;
  let profiles = table.columns.map(profileColumn);
  let key = chooseGroupKey(profiles, keyTargetOf(kind), table.rowCount, noun);
  const fillDown = key.column === undefined ? undefined : detectFillDown(table, key.column);
  if (fillDown !== undefined) {
    table = fillDownSample(table, key.column!);
    profiles = table.columns.map(profileColumn);
    key = chooseGroupKey(profiles, keyTargetOf(kind), table.rowCount, noun);
  }
  const groups = key.groups;
  return { table, profiles: profiles.map((profile) => regroup(profile, groups)), key, fillDown, groupCount: key.count };
}

function scoreContextOf(table: SampleTable, profiles: readonly ColumnProfile[], key: GroupKey | undefined, kind: MappingKind): ScoreContext {
  return {
    // A workbook's columns are matched as a CSV's are: columns of a table.
    format: table.format === 'xlsx' ? 'csv' : (table.format as 'csv' | 'json' | 'ndjson'),
    key,
    dateColumns: {
      record: profiles.filter((p) => p.date !== undefined && p.column.level === 'record').length,
      line: profiles.filter((p) => p.date !== undefined && p.column.level === 'line').length,
    },
    noun: kind === 'requests' ? 'request' : 'order',
  };
}

/** `groupBy` when the key column passes the threshold, else the column as a guess to look at. */
function decideGroupBy(key: GroupKey | undefined): { groupBy: Detected<string> | undefined; groupByGuess: MappingParts['groupByGuess'] } {
  const keyPassed = key?.column !== undefined && key.confidence >= CONFIDENCE_THRESHOLD;
  const groupBy: Detected<string> | undefined = keyPassed ? { value: key!.column!, reason: key!.reason } : undefined;
  const groupByGuess = key?.column !== undefined && !keyPassed ? { value: key.column, reason: key.reason, confidence: key.confidence } : undefined;
  return { groupBy, groupByGuess };
}

/** Columns no field reads (the group column is read by `groupBy`), named as a mapping would name them. */
function listUnusedColumns(table: SampleTable, used: ReadonlySet<SampleColumn>, groupBy: Detected<string> | undefined): string[] {
  const linesAt = table.itemsPath?.value;
  return table.columns
    .filter((column) => !used.has(column) && column.name !== groupBy?.value)
    .map((column) => (column.level === 'line' && linesAt !== undefined ? `${linesAt}[].${column.name}` : column.name));
}

function gatherWarnings(table: SampleTable, profiles: readonly ColumnProfile[], key: GroupKey | undefined, numbers: NumberStyle, kind: MappingKind): Phrase[] {
  const warnings = [...table.warnings, ...(key?.warning ? [key.warning] : []), ...(numbers.warning ? [numbers.warning] : [])];
  if (kind === 'requests') {
    const orders = profiles.find((p) => p.orderId >= 0.9);
    if (orders) warnings.push(phrase('summary.warn.orderIds', { column: shown(orders.column.name) }));
  }
  return warnings;
}

/** Every required field has a source, and so does one of each `ONE_OF` set. */
function fieldsComplete(fields: readonly FieldSuggestion[], kind: MappingKind): boolean {
  const oneOf = ONE_OF[kind];
  return (
    fields.every((field) => !field.required || field.source !== undefined) &&
    (oneOf === undefined || fields.some((field) => oneOf.includes(field.key) && field.source !== undefined))
  );
}

/** Each date column's format, with the example it was read from. */
function describeDates(profiles: readonly ColumnProfile[]): Record<string, Detected<string>> {
  const dates: Record<string, Detected<string>> = {};
  for (const profile of profiles) {
    if (profile.date === undefined) continue;
    const format = profile.date.format ?? 'YYYY-MM-DD (ISO)';
    const example = shown(profile.date.example);
    const twin = profile.date.ambiguousWith;
    dates[profile.column.name] = {
      value: format,
      reason: twin ? phrase('summary.why.dateExampleTwin', { example, twin }) : phrase('summary.why.dateExample', { example }),
    };
  }
  return dates;
}
