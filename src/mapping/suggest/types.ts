/**
 * The shapes the suggester's steps hand each other, and the thresholds that decide what is written
 * as a field and what stays a TODO line.
 */
import type { MappingKind, PartSpec } from '../../config/mapping-schema.js';
import type { Phrase } from './summary-words.js';

/** A guess at or above this confidence is written as a field; below it, it stays a TODO line. */
export const CONFIDENCE_THRESHOLD = 0.6;
/** A field written with less confidence than this is listed among the fields to look at. */
export const REVIEW_BELOW = 0.8;

/** A decision about the sample, with the reason a person can check. */
export interface Detected<T> {
  value: T;
  reason: Phrase;
}

/** One source of the sample: a CSV column, or a JSON path inside a record or inside a line. */
export interface SampleColumn {
  /** The CSV header (trimmed, as the daemon reads it) or the dotted JSON path. */
  name: string;
  /**
   * `record`: a JSON record's own field, one value per request. `line`: a JSON line's field, or a
   * CSV column (one value per row; which CSV columns are per request is learnt from the grouping).
   */
  level: 'record' | 'line';
  /** Trimmed values, `''` where empty or missing, one per row of its level. */
  values: string[];
  /** For each value, the request it belongs to (JSON: the record; CSV: set by the grouping). */
  groups: number[];
}

/** A sample read into columns, with what was detected about the file. */
export interface SampleTable {
  format: 'csv' | 'json' | 'ndjson' | 'xlsx' | 'xml';
  encoding: Detected<'utf-8' | 'windows-1251' | 'auto'>;
  /** CSV only. */
  delimiter?: Detected<string>;
  /** CSV: the 1-based line of the header; XLSX: its row. */
  headerLine?: Detected<number>;
  /** XLSX only: the sheet read (the first). */
  sheet?: Detected<string>;
  /** JSON only: the dotted path of the records array (undefined: the file is the array, or one record). */
  jsonPath?: Detected<string | undefined>;
  /** JSON only: the path of each record's lines array. */
  itemsPath?: Detected<string | undefined>;
  columns: SampleColumn[];
  /** XML only: what the document is, as the summary names it (`a CommerceML document export, 3 order documents`). */
  document?: Phrase;
  /** Data rows (CSV) or records (JSON). */
  rowCount: number;
  /** What the user must know that no field carries (a title above the header, a cut sample). */
  warnings: Phrase[];
}

/** Where a suggested field reads from (`const`: a value the site gives, as a preset's shipped mapping does). */
export type SuggestedSource =
  | { column: string }
  | { path: string }
  | { counter: true }
  | { const: string }
  /** A preset's field built from several paths (the EnterpriseData preset's externalId and item name). */
  | { template: string }
  | { parts: readonly Partial<PartSpec>[] };

/** One target field of the mapping, matched or left as a TODO. */
export interface FieldSuggestion {
  /** The key as the mapping writes it: `request.customer.inn`, `items.lineId`, `orderId`. */
  key: string;
  /** The mapping cannot load without it (`contact.phone`/`contact.email`: one of the two is needed). */
  required: boolean;
  /** Undefined: a TODO, the field is not written. */
  source: SuggestedSource | undefined;
  /** The other keys of the field spec: `date`, `optional`, `map`. */
  options: Record<string, unknown>;
  /** 0..1; for a TODO, the best guess's (0 when nothing fitted at all). */
  confidence: number;
  /** Why this source, or why none. */
  reason: Phrase;
  /** For a TODO: the best guess below the threshold, if any. */
  guess?: SuggestedSource;
}

/** A suggested mapping: the YAML to write, and what it is made of, for the summary and the console. */
export interface MappingSuggestion {
  kind: MappingKind;
  fileName: string;
  /** The commented YAML. */
  yaml: string;
  /** The mapping as data (what the YAML holds without its comments and TODO lines). */
  mapping: Record<string, unknown>;
  sample: Omit<SampleTable, 'columns'> & { columns: string[] };
  decimalComma: Detected<boolean>;
  /** Thousands separators seen, by name (`non-breaking space`). */
  thousands: string[];
  /** CSV, XLSX: the column that groups rows into requests. */
  groupBy?: Detected<string>;
  /** CSV, XLSX: the group column is blank on the lines below a request's first row (a grouped report). */
  fillDown?: Detected<boolean>;
  /** Requests (or confirmations) the suggester counts in the sample. */
  groupCount: number;
  /** Date formats chosen, by column (`Срок` → `DD.MM.YYYY`; ISO columns say `YYYY-MM-DD (ISO)`). */
  dates: Record<string, Detected<string>>;
  fields: FieldSuggestion[];
  unusedColumns: string[];
  warnings: Phrase[];
  /** What else the flow needs or the user should know, that is not wrong with the sample (the daemon config an exchange flow needs). */
  notes?: Phrase[];
  /** Every required field has a source: the YAML loads as a mapping. */
  complete: boolean;
}
