/**
 * A CSV sample's text → columns: the delimiter (the one of `;`, `,`, tab, `|` that splits the
 * records into the same number of cells, most cells first), then the header line (the first record
 * whose cells are names, not values), then one column per header cell.
 */
import { parse } from 'csv-parse/sync';
import { looksLikeValue } from './classify-values.js';
import type { Detected, SampleTable } from './types.js';
import { tableColumns } from './table-columns.js';
import { phrase, type Phrase } from './summary-words.js';

const DELIMITERS = [';', ',', '\t', '|'] as const;
/** Records looked at for the header; a title longer than this is not a title. */
const HEADER_SEARCH = 10;
/** Shorter cuts tried when a cut sample ends inside a quoted field. */
const CUT_RETRIES = 20;

type CsvPart = Pick<SampleTable, 'delimiter' | 'headerLine' | 'columns' | 'rowCount' | 'warnings'>;

/** Delimiter, header and columns of a CSV sample (`cut`: the text is the start of a longer file). */
export function readCsvSample(text: string, cut: boolean): CsvPart {
  const warnings: Phrase[] = [];
  const delimiter = chooseDelimiter(text, cut);
  if (delimiter === undefined) {
    warnings.push(phrase('summary.warn.noDelimiter'));
    return { delimiter: { value: ';', reason: phrase('summary.why.defaultDelimiter') }, columns: [], rowCount: 0, warnings };
  }
  const records = delimiter.records;
  const headerIndex = records.slice(0, HEADER_SEARCH).findIndex((record) => isHeader(record, delimiter.width));
  if (headerIndex === -1) {
    warnings.push(phrase('summary.warn.noHeader'));
    return { delimiter: delimiter.detected, columns: [], rowCount: records.length, warnings };
  }
  const headerLine = lineOfRecord(text, delimiter.detected.value, headerIndex);
  if (headerIndex > 0) {
    warnings.push(phrase('summary.warn.headerBelow', { line: headerLine, n: headerIndex }));
  }
  const header = records[headerIndex]!.map((cell) => cell.trim());
  const rows = records.slice(headerIndex + 1);
  if (rows.length === 0) warnings.push(phrase('summary.warn.noRows'));
  const columns = tableColumns(
    header,
    rows.map((row) => header.map((_, index) => (row[index] ?? '').trim())),
    warnings,
  );
  return {
    delimiter: delimiter.detected,
    headerLine: {
      value: headerLine,
      reason: headerIndex === 0 ? phrase('summary.why.firstLineNames') : phrase('summary.why.namesAfter', { n: headerIndex }),
    },
    columns,
    rowCount: rows.length,
    warnings,
  };
}

interface DelimiterChoice {
  detected: Detected<string>;
  records: string[][];
  /** Cells per record (the most common count). */
  width: number;
}

function chooseDelimiter(text: string, cut: boolean): DelimiterChoice | undefined {
  let best: (DelimiterChoice & { consistency: number }) | undefined;
  for (const delimiter of DELIMITERS) {
    const records = parseRecords(text, delimiter, cut);
    if (records === undefined || records.length === 0) continue;
    const width = modeOf(records.map((record) => record.length));
    if (width < 2) continue;
    const consistent = records.filter((record) => record.length === width).length;
    const consistency = consistent / records.length;
    const better = best === undefined || consistency > best.consistency + 0.05 || (consistency >= best.consistency - 0.05 && width > best.width);
    if (better) {
      const name = delimiter === '\t' ? phrase('summary.why.tab') : JSON.stringify(delimiter);
      const reason = phrase('summary.why.delimiterSplits', { delimiter: name, consistent, records: records.length, width });
      best = { detected: { value: delimiter, reason }, records, width, consistency };
    }
  }
  return best;
}

/** The records, or undefined when this delimiter makes the text unreadable CSV. */
function parseRecords(text: string, delimiter: string, cut: boolean): string[][] | undefined {
  let body = text;
  for (let attempt = 0; attempt <= (cut ? CUT_RETRIES : 0); attempt++) {
    try {
      return parse(body, { delimiter, quote: '"', relax_column_count: true, skip_empty_lines: true }) as string[][];
    } catch {
      // A cut sample may end inside a quoted field: drop the last line and try again.
      const end = body.lastIndexOf('\n', body.length - 2);
      if (end <= 0) return undefined;
      body = body.slice(0, end + 1);
    }
  }
  return undefined;
}

function modeOf(counts: readonly number[]): number {
  const tally = new Map<number, number>();
  for (const count of counts) tally.set(count, (tally.get(count) ?? 0) + 1);
  let best = 0;
  let bestTally = 0;
  for (const [count, times] of tally) {
    if (times > bestTally || (times === bestTally && count > best)) [best, bestTally] = [count, times];
  }
  return best;
}

/** Names, not values: at least half the columns filled, no number, date or e-mail among them. */
function isHeader(record: readonly string[], width: number): boolean {
  const cells = record.map((cell) => cell.trim()).filter((cell) => cell !== '');
  if (cells.length < Math.max(2, Math.ceil(width / 2))) return false;
  return !cells.some(looksLikeValue);
}

/** The 1-based line on which record `index` starts (records may span lines inside quotes). */
function lineOfRecord(text: string, delimiter: string, index: number): number {
  if (index === 0) return 1 + leadingBlankLines(text);
  try {
    const records = parse(text, { delimiter, quote: '"', relax_column_count: true, skip_empty_lines: true, info: true, to: index + 1 }) as unknown as {
      info: { lines: number };
    }[];
    return records[index]?.info.lines ?? index + 1;
  } catch {
    return index + 1;
  }
}

function leadingBlankLines(text: string): number {
  const match = /^(?:[ \t]*\r?\n)*/.exec(text);
  return match ? (match[0].match(/\n/g) ?? []).length : 0;
}
