/**
 * `suggestMapping`: a sample export's bytes → a mapping to start from. Pure (no file, no clock):
 * the CLI hands it a file's bytes, the console an upload. What it does, in order:
 *
 * 1. read the sample: format, encoding, delimiter, header line, columns (`read-sample.ts`);
 * 2. profile each column's values (`profile-column.ts`);
 * 3. CSV: choose the column that groups rows into requests, then learn which columns are the same
 *    on every row of a request and which number its lines (`choose-grouping.ts`);
 * 4. decide decimal commas from every numeric column (`decide-numbers.ts`);
 * 5. match columns to target fields by name and content (`match-fields.ts`);
 * 6. write the commented YAML (`write-yaml.ts`).
 */
import type { MappingKind } from '../../config/mapping-schema.js';
import { chooseGroupKey, type GroupKey } from './choose-grouping.js';
import { decideNumbers } from './decide-numbers.js';
import { matchFields } from './match-fields.js';
import { profileColumn, regroup } from './profile-column.js';
import { readSample } from './read-sample.js';
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
  const kind = options.kind ?? 'requests';
  const table = readSample(bytes, fileName, options.truncated);
  let profiles = table.columns.map(profileColumn);
  let key: GroupKey | undefined;
  let groupCount = table.rowCount;
  if (table.format === 'csv') {
    key = chooseGroupKey(profiles, keyTargetOf(kind), table.rowCount, kind === 'requests' ? 'request' : 'order');
    const groups = key.groups;
    profiles = profiles.map((profile) => regroup(profile, groups));
    groupCount = key.count;
  }
  const numbers = decideNumbers(profiles, table.delimiter?.value);
  const dateColumns = {
    record: profiles.filter((p) => p.date !== undefined && p.column.level === 'record').length,
    line: profiles.filter((p) => p.date !== undefined && p.column.level === 'line').length,
  };
  const hasLines = table.format === 'csv' ? table.columns.length > 0 : table.itemsPath?.value !== undefined;
  const { fields, used } = matchFields(
    targetsOf(kind),
    profiles,
    { format: table.format, key, dateColumns, noun: kind === 'requests' ? 'request' : 'order' },
    hasLines,
  );

  const keyPassed = key?.column !== undefined && key.confidence >= CONFIDENCE_THRESHOLD;
  const groupBy: Detected<string> | undefined = keyPassed ? { value: key!.column!, reason: key!.reason } : undefined;
  const groupByGuess = key?.column !== undefined && !keyPassed ? { value: key.column, reason: key.reason, confidence: key.confidence } : undefined;
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
    (table.format !== 'csv' || groupBy !== undefined) &&
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
    groupCount,
    dates,
    fields,
    unusedColumns,
    warnings,
    complete,
  };
}
