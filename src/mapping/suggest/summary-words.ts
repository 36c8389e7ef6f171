/**
 * The words of the suggestion's summary (preview-suggestion.ts), by key, with `{name}` placeholders
 * and plural forms chosen by `{n}`. The CLI (`mapping suggest`) says them in English, from here;
 * the console's mapping page says them in its language: its catalogues have these keys under
 * `summary.` (messages-en.ts takes this English; messages-ru.ts has the Russian).
 *
 * What the suggester found and why (a reason, a warning, a note, a problem of the preview) is its
 * own text, in English, and is quoted as it is.
 */

/** A text, or its plural forms by `{n}` (the console's `Entry`). */
export type SummaryEntry = string | { one: string; few?: string; many?: string; other: string };

export const SUMMARY_WORDS_EN = {
  'summary.inEditor': 'in the editor',
  'summary.title.requests': 'Suggested a requests mapping for {file} ({written}).',
  'summary.title.confirmations': 'Suggested a confirmations mapping for {file} ({written}).',
  'summary.encoding': 'encoding {value} ({reason})',
  'summary.columns': { one: '{n} column', other: '{n} columns' },
  'summary.dataRows': { one: '{n} data row', other: '{n} data rows' },
  'summary.records': { one: '{n} record', other: '{n} records' },
  'summary.documents': { one: '{n} document', other: '{n} documents' },
  'summary.csvSample': '  Sample: CSV, {encoding}, delimiter {delimiter} ({reason}),',
  'summary.csvHeader': '          header on line {line}, {columns}, {rows}',
  'summary.xlsxSample': '  Sample: XLSX, {sheet}, header on row {row} ({reason}),',
  'summary.xlsxSize': '          {columns}, {rows}',
  'summary.firstSheet': 'the first sheet',
  'summary.notFound': 'not found',
  'summary.xmlSample': '  Sample: XML, {document}',
  'summary.jsonSample': '  Sample: {format}, {encoding}, {records}{at}, lines at {items}',
  'summary.recordsAt': ' at {path}',
  'summary.grouping': '  Grouping: {value}',
  'summary.fillDown': '  Fill-down: {reason}',
  'summary.numbers': '  Numbers: decimalComma {value} ({reason}){thousands}',
  'summary.thousands': '; thousands separator: {list}',
  'summary.dates': '  Dates: {list}',
  'summary.fields': '  Fields: {matched} of {total} written ({requiredMatched} of {required} required){todo}',
  'summary.fieldsTodo': '; TODO: {list}',
  'summary.unusedColumns': '  Unused columns: {list}',
  'summary.requests': { one: '{n} request', other: '{n} requests' },
  'summary.confirmations': { one: '{n} confirmation', other: '{n} confirmations' },
  'summary.problems': { one: '{n} problem', other: '{n} problems' },
  'summary.previewRan': 'Preview of the sample: {submissions}, {problems}{codes}; dates in the past are not checked here',
  'summary.previewNotRun': 'Preview not run: the mapping does not load yet ({why}); fill in the TODO lines',
  'summary.lookAt': 'Look at:',
  'summary.warnings': 'Warnings:',
  'summary.notes': 'Notes:',
  'summary.look.groupBy': 'groupBy: TODO, required: no column was sure to group the rows',
  'summary.look.required': '{key}: TODO, required: {reason}',
  'summary.look.optional': '{key}: TODO, optional: {reason}',
  'summary.look.counter': '{key}: generated (counter): {reason}',
  'summary.look.checkIt': '{key}: {confidence}, check it: {reason}',
  'summary.look.problems': { one: '{key}: {n} problem in the preview', other: '{key}: {n} problems in the preview' },
  'summary.final.ready': 'Every required field has a column (guesses under {threshold} are TODOs). Check the "Look at" list, then point a flow at the mapping.',
  'summary.final.nothingToMap': 'The mapping loads, but the sample holds nothing to map: run `preview` on a sample with data before a flow uses it.',
  'summary.final.incomplete': 'Incomplete: fill in the TODO lines (or fix what the preview reports) and run `preview`.',
} as const satisfies Record<string, SummaryEntry>;

export type SummaryKey = keyof typeof SUMMARY_WORDS_EN;

/** A word of the summary, its placeholders filled (`{n}` also chooses the plural form). */
export type SummarySay = (key: SummaryKey, params?: Record<string, string | number>) => string;

/** The summary in English, as the CLI prints it. */
export const summaryEnglish: SummarySay = (key, params) => {
  const entry: SummaryEntry = SUMMARY_WORDS_EN[key];
  const text = typeof entry === 'string' ? entry : Number(params?.n) === 1 ? entry.one : entry.other;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name]) : whole));
};
