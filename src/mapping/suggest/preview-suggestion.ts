/**
 * The suggestion tried on its own sample: the YAML is loaded as `check` loads a mapping and the
 * sample mapped as the daemon would map it, so the summary says what the mapping really does
 * (requests found, problems by code) and which fields the user must still look at.
 *
 * Dates in the past are not problems here: a sample is usually an old export, and the flow's
 * `intake.rejectPastDates` applies when the daemon runs.
 */
import YAML from 'yaml';
import { parseMappingSpec } from '../../config/load-mapping.js';
import { isConnectorError } from '../../errors.js';
import { mapFile, type MapInput } from '../map-file.js';
import { CONFIDENCE_THRESHOLD, REVIEW_BELOW, type MappingSuggestion } from './types.js';
import { shown } from './shown.js';

/** Problem messages quoted in the summary. */
const SHOWN_PROBLEMS = 5;

export interface SuggestionPreview {
  /** False when the YAML does not load as a mapping (a required field is still a TODO). */
  ran: boolean;
  /** Why it did not run: the `MAPPING_INVALID` message. */
  skipped?: string;
  /** Requests (or confirmations) the mapping builds from the sample. */
  submissions: number;
  problemsByCode: Record<string, number>;
  /** A problem about the whole file (a missing column, an unreadable line): the mapping does not fit the file. */
  fileProblem: boolean;
  /** Mapping keys the problems name (`request.customer.inn`, `items.unit`), with their count. */
  problemFields: Record<string, number>;
  /** The first problem messages. */
  examples: string[];
}

export interface PreviewOptions {
  /** The clock of the mapping stage; dates in the past are not checked. */
  now: Date;
}

export async function previewSuggestion(suggestion: MappingSuggestion, sample: MapInput, options: PreviewOptions): Promise<SuggestionPreview> {
  const preview: SuggestionPreview = { ran: false, submissions: 0, problemsByCode: {}, fileProblem: false, problemFields: {}, examples: [] };
  let spec;
  try {
    spec = parseMappingSpec(YAML.parse(suggestion.yaml), `the suggested mapping`);
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    return { ...preview, skipped: error.message };
  }
  preview.ran = true;
  for await (const item of mapFile(sample, spec, { now: options.now, rejectPastDates: false, fileLabel: suggestion.fileName })) {
    if (item.kind === 'submission') {
      preview.submissions += 1;
      continue;
    }
    if (item.kind === 'withdrawal') continue;
    const { problem } = item;
    preview.problemsByCode[problem.code] = (preview.problemsByCode[problem.code] ?? 0) + 1;
    if (problem.row === null) preview.fileProblem = true;
    const key = mappingKeyOf(problem.field, problem.row, suggestion.kind);
    if (key !== undefined) preview.problemFields[key] = (preview.problemFields[key] ?? 0) + 1;
    if (preview.examples.length < SHOWN_PROBLEMS) preview.examples.push(`${problem.code}: ${problem.message}`);
  }
  return preview;
}

/** The mapping key a problem's field names: `items[3].unit` → `items.unit`, `customer.inn` → `request.customer.inn`. */
function mappingKeyOf(field: string | null, row: number | null, kind: MappingSuggestion['kind']): string | undefined {
  if (field === null || row === null) return undefined;
  const line = /^items\[\d+\]\.(.+)$/.exec(field);
  if (line) return `items.${line[1]}`;
  if (field === 'orderId') return field;
  return `${kind === 'requests' ? 'request' : 'confirmation'}.${field}`;
}

/** 0 when the mapping is complete and builds at least one submission from its sample with no file-level problem; else 1. */
export function suggestExitCode(suggestion: MappingSuggestion, preview: SuggestionPreview): 0 | 1 {
  return suggestion.complete && preview.ran && preview.submissions > 0 && !preview.fileProblem ? 0 : 1;
}

/** Each field the user must still look at, with why: `request.contact.name: 0.71, "ФИО клиента" contains "ФИО"`. */
export function fieldsToLookAt(suggestion: MappingSuggestion, preview: SuggestionPreview): string[] {
  const out: string[] = [];
  const tabular = suggestion.sample.format === 'csv' || suggestion.sample.format === 'xlsx';
  if (tabular && suggestion.groupBy === undefined) out.push('groupBy: TODO, required: no column was sure to group the rows');
  for (const field of suggestion.fields) {
    if (field.source === undefined) {
      if (field.required || field.guess !== undefined) out.push(`${field.key}: TODO, ${field.required ? 'required' : 'optional'}: ${field.reason}`);
    } else if ('counter' in field.source) {
      out.push(`${field.key}: generated (counter): ${field.reason}`);
    } else if (field.confidence < REVIEW_BELOW) {
      out.push(`${field.key}: ${field.confidence.toFixed(2)}, check it: ${field.reason}`);
    }
  }
  for (const [key, count] of Object.entries(preview.problemFields)) out.push(`${key}: ${count} problem(s) in the preview`);
  return out;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The summary printed after the YAML: what was detected, what the preview found, what to look at. */
export function formatSuggestionSummary(suggestion: MappingSuggestion, preview: SuggestionPreview, written: string): string {
  const { sample } = suggestion;
  const lines = [`Suggested a ${suggestion.kind} mapping for ${suggestion.fileName} (${written}).`];
  const encoding = `encoding ${sample.encoding.value} (${sample.encoding.reason})`;
  if (sample.format === 'csv') {
    lines.push(`  Sample: CSV, ${encoding}, delimiter ${JSON.stringify(sample.delimiter?.value)} (${sample.delimiter?.reason}),`);
    lines.push(
      `          header on line ${sample.headerLine?.value ?? '?'}, ${plural(sample.columns.length, 'column')}, ${plural(sample.rowCount, 'data row')}`,
    );
    lines.push(`  Grouping: ${suggestion.groupBy ? `${shown(suggestion.groupBy.value)} (${suggestion.groupBy.reason})` : 'TODO'}`);
  } else if (sample.format === 'xlsx') {
    lines.push(
      `  Sample: XLSX, ${sample.sheet?.value ?? 'the first sheet'}, header on row ${sample.headerLine?.value ?? '?'} (${sample.headerLine?.reason ?? 'not found'}),`,
    );
    lines.push(`          ${plural(sample.columns.length, 'column')}, ${plural(sample.rowCount, 'data row')}`);
    lines.push(`  Grouping: ${suggestion.groupBy ? `${shown(suggestion.groupBy.value)} (${suggestion.groupBy.reason})` : 'TODO'}`);
    if (suggestion.fillDown) lines.push(`  Fill-down: ${suggestion.fillDown.reason}`);
  } else if (sample.format === 'xml') {
    lines.push(`  Sample: XML, ${sample.document ?? plural(sample.rowCount, 'document')}`);
  } else {
    const at = sample.jsonPath?.value === undefined ? '' : ` at ${shown(sample.jsonPath.value)}`;
    lines.push(
      `  Sample: ${sample.format.toUpperCase()}, ${encoding}, ${plural(sample.rowCount, 'record')}${at}, lines at ${shown(sample.itemsPath?.value ?? '?')}`,
    );
  }
  const thousands = suggestion.thousands.length > 0 ? `; thousands separator: ${suggestion.thousands.join(', ')}` : '';
  lines.push(`  Numbers: decimalComma ${suggestion.decimalComma.value} (${suggestion.decimalComma.reason})${thousands}`);
  const dates = Object.entries(suggestion.dates).map(([column, format]) => `${shown(column)} ${format.value}`);
  if (dates.length > 0) lines.push(`  Dates: ${dates.join(', ')}`);
  const matched = suggestion.fields.filter((field) => field.source !== undefined);
  const required = suggestion.fields.filter((field) => field.required);
  const todo = suggestion.fields.filter((field) => field.source === undefined).map((field) => field.key);
  lines.push(
    `  Fields: ${matched.length} of ${suggestion.fields.length} written (${required.filter((f) => f.source !== undefined).length} of ${required.length} required)` +
      (todo.length > 0 ? `; TODO: ${todo.join(', ')}` : ''),
  );
  if (suggestion.unusedColumns.length > 0) lines.push(`  Unused columns: ${suggestion.unusedColumns.map(shown).join(', ')}`);
  if (preview.ran) {
    const codes = Object.entries(preview.problemsByCode).map(([code, count]) => `${code} ${count}`);
    const noun = suggestion.kind === 'requests' ? 'request' : 'confirmation';
    lines.push(
      `Preview of the sample: ${plural(preview.submissions, noun)}, ${plural(sum(preview.problemsByCode), 'problem')}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}; dates in the past are not checked here`,
    );
    for (const example of preview.examples) lines.push(`  ${example}`);
  } else {
    lines.push(`Preview not run: the mapping does not load yet (${firstLine(preview.skipped)}); fill in the TODO lines`);
  }
  const look = fieldsToLookAt(suggestion, preview);
  if (look.length > 0) lines.push('Look at:', ...look.map((line) => `  - ${line}`));
  if (suggestion.warnings.length > 0) lines.push('Warnings:', ...suggestion.warnings.map((line) => `  - ${line}`));
  if (suggestion.notes !== undefined && suggestion.notes.length > 0) lines.push('Notes:', ...suggestion.notes.map((line) => `  - ${line}`));
  lines.push(finalLine(suggestion, preview));
  return `${lines.join('\n')}\n`;
}

function finalLine(suggestion: MappingSuggestion, preview: SuggestionPreview): string {
  if (suggestExitCode(suggestion, preview) === 0) {
    return `Every required field has a column (guesses under ${CONFIDENCE_THRESHOLD} are TODOs). Check the "Look at" list, then point a flow at the mapping.`;
  }
  // A sample with nothing to map (1C's settings message): the mapping is whole, the sample says nothing of it.
  if (suggestion.complete && preview.ran && preview.submissions === 0 && sum(preview.problemsByCode) === 0) {
    return 'The mapping loads, but the sample holds nothing to map: run `preview` on a sample with data before a flow uses it.';
  }
  return 'Incomplete: fill in the TODO lines (or fix what the preview reports) and run `preview`.';
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

function firstLine(text: string | undefined): string {
  const lines = (text ?? '').split('\n');
  return lines.length > 1
    ? `${lines[0]} ${lines
        .slice(1)
        .map((line) => line.trim())
        .join('; ')}`
    : lines[0]!;
}
