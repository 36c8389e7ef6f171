/**
 * The suggestion tried on its own sample: the YAML is loaded as `check` loads a mapping and the
 * sample mapped as the daemon would map it, so the summary says what the mapping really does
 * (requests found, problems by code) and which fields the user must still look at.
 *
 * Dates in the past are not problems here: a sample is usually an old export, and the flow's
 * `intake.rejectPastDates` applies when the daemon runs.
 */
import YAML from 'yaml';
import type { ConfigProblem } from '../../config/config-problem.js';
import { parseMappingSpec } from '../../config/load-mapping.js';
import { isConnectorError } from '../../errors.js';
import { mapFile, type MapInput } from '../map-file.js';
import { CONFIDENCE_THRESHOLD, REVIEW_BELOW, type MappingSuggestion } from './types.js';
import { shown } from './shown.js';
import { sayPhrase, SUMMARY_WORDS_EN, summaryEnglish, type Phrase, type SummaryKey, type SummarySay } from './summary-words.js';

/** Problem messages quoted in the summary. */
const SHOWN_PROBLEMS = 5;

export interface SuggestionPreview {
  /** False when the YAML does not load as a mapping (a required field is still a TODO). */
  ran: boolean;
  /** Why it did not run: the `MAPPING_INVALID` message. */
  skipped?: string;
  /** The same as its problems, each with the text a console words it with. */
  skippedProblems?: ConfigProblem[];
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
    const problems = Array.isArray(error.details.problems) ? (error.details.problems as ConfigProblem[]) : [];
    return { ...preview, skipped: error.message, ...(problems.length > 0 ? { skippedProblems: problems } : {}) };
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

/** Each field the user must still look at, with why: `request.contact.name: 0.71, check it: "ФИО клиента" contains "ФИО"`. */
export function fieldsToLookAt(suggestion: MappingSuggestion, preview: SuggestionPreview, say: SummarySay = summaryEnglish): string[] {
  const out: string[] = [];
  const tabular = suggestion.sample.format === 'csv' || suggestion.sample.format === 'xlsx';
  if (tabular && suggestion.groupBy === undefined) out.push(say('summary.look.groupBy'));
  for (const field of suggestion.fields) {
    const { key } = field;
    const reason = sayPhrase(field.reason, say);
    if (field.source === undefined) {
      if (field.required || field.guess !== undefined) out.push(say(field.required ? 'summary.look.required' : 'summary.look.optional', { key, reason }));
    } else if ('counter' in field.source) {
      out.push(say('summary.look.counter', { key, reason }));
    } else if (field.confidence < REVIEW_BELOW) {
      out.push(say('summary.look.checkIt', { key, confidence: field.confidence.toFixed(2), reason }));
    }
  }
  for (const [key, n] of Object.entries(preview.problemFields)) out.push(say('summary.look.problems', { key, n }));
  return out;
}

/**
 * The summary printed after the YAML: what was detected, what the preview found, what to look at.
 * `say` words it (English, as the CLI prints it; the console passes its language's), and
 * `sayProblem` words a problem of the suggested mapping (the console's text of it; by default its
 * English message); `written` says where the YAML went.
 */
export function formatSuggestionSummary(
  suggestion: MappingSuggestion,
  preview: SuggestionPreview,
  written: string,
  say: SummarySay = summaryEnglish,
  sayProblem?: (problem: ConfigProblem) => string,
): string {
  const { sample } = suggestion;
  const lines = [say(suggestion.kind === 'requests' ? 'summary.title.requests' : 'summary.title.confirmations', { file: suggestion.fileName, written })];
  const why = (reason: Phrase) => sayPhrase(reason, say);
  const encoding = say('summary.encoding', { value: sample.encoding.value, reason: why(sample.encoding.reason) });
  const columns = say('summary.columns', { n: sample.columns.length });
  const rows = say('summary.dataRows', { n: sample.rowCount });
  const grouping = () =>
    say('summary.grouping', { value: suggestion.groupBy ? `${shown(suggestion.groupBy.value)} (${why(suggestion.groupBy.reason)})` : 'TODO' });
  if (sample.format === 'csv') {
    lines.push(
      say('summary.csvSample', { encoding, delimiter: JSON.stringify(sample.delimiter?.value), reason: sample.delimiter ? why(sample.delimiter.reason) : '' }),
    );
    lines.push(say('summary.csvHeader', { line: sample.headerLine?.value ?? '?', columns, rows }));
    lines.push(grouping());
  } else if (sample.format === 'xlsx') {
    lines.push(
      say('summary.xlsxSample', {
        sheet: sample.sheet?.value ?? say('summary.firstSheet'),
        row: sample.headerLine?.value ?? '?',
        reason: sample.headerLine ? why(sample.headerLine.reason) : say('summary.notFound'),
      }),
    );
    lines.push(say('summary.xlsxSize', { columns, rows }));
    lines.push(grouping());
    if (suggestion.fillDown) lines.push(say('summary.fillDown', { reason: why(suggestion.fillDown.reason) }));
  } else if (sample.format === 'xml') {
    lines.push(say('summary.xmlSample', { document: sample.document ? sayPhrase(sample.document, say) : say('summary.documents', { n: sample.rowCount }) }));
  } else {
    const at = sample.jsonPath?.value === undefined ? '' : say('summary.recordsAt', { path: shown(sample.jsonPath.value) });
    lines.push(
      say('summary.jsonSample', {
        format: sample.format.toUpperCase(),
        encoding,
        records: say('summary.records', { n: sample.rowCount }),
        at,
        items: shown(sample.itemsPath?.value ?? '?'),
      }),
    );
  }
  const thousandName = (name: string) => (`summary.thousand.${name}` in SUMMARY_WORDS_EN ? say(`summary.thousand.${name}` as SummaryKey) : name);
  const thousands = suggestion.thousands.length > 0 ? say('summary.thousands', { list: suggestion.thousands.map(thousandName).join(', ') }) : '';
  lines.push(say('summary.numbers', { value: String(suggestion.decimalComma.value), reason: why(suggestion.decimalComma.reason), thousands }));
  const dates = Object.entries(suggestion.dates).map(([column, format]) => `${shown(column)} ${format.value}`);
  if (dates.length > 0) lines.push(say('summary.dates', { list: dates.join(', ') }));
  const matched = suggestion.fields.filter((field) => field.source !== undefined);
  const required = suggestion.fields.filter((field) => field.required);
  const todo = suggestion.fields.filter((field) => field.source === undefined).map((field) => field.key);
  lines.push(
    say('summary.fields', {
      matched: matched.length,
      total: suggestion.fields.length,
      requiredMatched: required.filter((f) => f.source !== undefined).length,
      required: required.length,
      todo: todo.length > 0 ? say('summary.fieldsTodo', { list: todo.join(', ') }) : '',
    }),
  );
  if (suggestion.unusedColumns.length > 0) lines.push(say('summary.unusedColumns', { list: suggestion.unusedColumns.map(shown).join(', ') }));
  if (preview.ran) {
    const codes = Object.entries(preview.problemsByCode).map(([code, count]) => `${code} ${count}`);
    lines.push(
      say('summary.previewRan', {
        submissions: say(suggestion.kind === 'requests' ? 'summary.requests' : 'summary.confirmations', { n: preview.submissions }),
        problems: say('summary.problems', { n: sum(preview.problemsByCode) }),
        codes: codes.length > 0 ? ` (${codes.join(', ')})` : '',
      }),
    );
    for (const example of preview.examples) lines.push(`  ${example}`);
  } else {
    const problems = preview.skippedProblems;
    const why = sayProblem && problems ? problems.map((p) => `${p.path}: ${sayProblem(p)}`).join('; ') : firstLine(preview.skipped);
    lines.push(say('summary.previewNotRun', { why }));
  }
  const look = fieldsToLookAt(suggestion, preview, say);
  if (look.length > 0) lines.push(say('summary.lookAt'), ...look.map((line) => `  - ${line}`));
  const listed = (phrases: readonly Phrase[]) => phrases.map((p) => `  - ${sayPhrase(p, say)}`);
  if (suggestion.warnings.length > 0) lines.push(say('summary.warnings'), ...listed(suggestion.warnings));
  if (suggestion.notes !== undefined && suggestion.notes.length > 0) lines.push(say('summary.notes'), ...listed(suggestion.notes));
  lines.push(finalLine(suggestion, preview, say));
  return `${lines.join('\n')}\n`;
}

function finalLine(suggestion: MappingSuggestion, preview: SuggestionPreview, say: SummarySay): string {
  if (suggestExitCode(suggestion, preview) === 0) return say('summary.final.ready', { threshold: CONFIDENCE_THRESHOLD });
  // A sample with nothing to map (1C's settings message): the mapping is whole, the sample says nothing of it.
  if (suggestion.complete && preview.ran && preview.submissions === 0 && sum(preview.problemsByCode) === 0) return say('summary.final.nothingToMap');
  return say('summary.final.incomplete');
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
