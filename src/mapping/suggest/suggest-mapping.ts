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
import { decideNumbers } from './decide-numbers.js';
import { matchFields } from './match-fields.js';
import { profileColumn, regroup } from './profile-column.js';
import { detectFillDown, fillDownSample } from './fill-sample.js';
import { readSample } from './read-sample.js';
import type { SampleTable } from './types.js';
import { keyTargetOf, ONE_OF, targetsOf } from './targets.js';
import { CONFIDENCE_THRESHOLD, type Detected, type MappingSuggestion } from './types.js';
import { buildMapping, writeSuggestionYaml, type MappingParts } from './write-yaml.js';
import { shown } from './shown.js';

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
  let table = sampled;
  const tabular = table.format === 'csv' || table.format === 'xlsx';
  let profiles = table.columns.map(profileColumn);
  let key: GroupKey | undefined;
  let fillDown: Detected<boolean> | undefined;
  let groupCount = table.rowCount;
  if (tabular) {
    const noun = kind === 'requests' ? 'request' : 'order';
    key = chooseGroupKey(profiles, keyTargetOf(kind), table.rowCount, noun);
    fillDown = key.column === undefined ? undefined : detectFillDown(table, key.column);
    if (fillDown !== undefined) {
      table = fillDownSample(table, key.column!);
      profiles = table.columns.map(profileColumn);
      key = chooseGroupKey(profiles, keyTargetOf(kind), table.rowCount, noun);
    }
    const groups = key.groups;
    profiles = profiles.map((profile) => regroup(profile, groups));
    groupCount = key.count;
  }
  const numbers = decideNumbers(profiles, table.delimiter?.value);
  const dateColumns = {
    record: profiles.filter((p) => p.date !== undefined && p.column.level === 'record').length,
    line: profiles.filter((p) => p.date !== undefined && p.column.level === 'line').length,
  };
  const hasLines = tabular ? table.columns.length > 0 : table.itemsPath?.value !== undefined;
  const { fields, used } = matchFields(
    targetsOf(kind),
    profiles,
    // A workbook's columns are matched as a CSV's are: columns of a table.
    {
      format: table.format === 'xlsx' ? 'csv' : (table.format as 'csv' | 'json' | 'ndjson'),
      key,
      dateColumns,
      noun: kind === 'requests' ? 'request' : 'order',
    },
    hasLines,
  );

  const keyPassed = key?.column !== undefined && key.confidence >= CONFIDENCE_THRESHOLD;
  const groupBy: Detected<string> | undefined = keyPassed ? { value: key!.column!, reason: key!.reason } : undefined;
  const groupByGuess = key?.column !== undefined && !keyPassed ? { value: key.column, reason: key.reason, confidence: key.confidence } : undefined;
  if (groupBy === undefined) fillDown = undefined;
  const linesAt = table.itemsPath?.value;
  const unusedColumns = table.columns
    .filter((column) => !used.has(column) && column.name !== groupBy?.value)
    .map((column) => (column.level === 'line' && linesAt !== undefined ? `${linesAt}[].${column.name}` : column.name));
  const warnings = [...table.warnings, ...(key?.warning ? [key.warning] : []), ...(numbers.warning ? [numbers.warning] : [])];
  if (kind === 'requests') {
    const orders = profiles.find((p) => p.orderId >= 0.9);
    if (orders) warnings.push(`${shown(orders.column.name)} holds platform order ids: is this a supplier confirmation? (--kind confirmations)`);
  }
  const oneOf = ONE_OF[kind];
  const complete =
    table.columns.length > 0 &&
    hasLines &&
    (!tabular || groupBy !== undefined) &&
    fields.every((field) => !field.required || field.source !== undefined) &&
    (oneOf === undefined || fields.some((field) => oneOf.includes(field.key) && field.source !== undefined));

  const dates: Record<string, Detected<string>> = {};
  for (const profile of profiles) {
    if (profile.date === undefined) continue;
    const format = profile.date.format ?? 'YYYY-MM-DD (ISO)';
    const twin = profile.date.ambiguousWith ? `; ${profile.date.ambiguousWith} fits as well` : '';
    dates[profile.column.name] = { value: format, reason: `${shown(profile.date.example)}${twin}` };
  }

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
