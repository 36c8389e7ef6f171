/**
 * One target field compiled once per file into two small functions: `read` (the raw source value
 * of a record) and `convert` (trim, default, map, case, number/integer/date). The per-row path
 * then runs no regex construction, no zod and no spec lookups.
 */
import type { ErrorCode } from '../errors.js';
import type { MessageText } from '../shared/types.js';
import { DATE_FIELDS, NUMERIC_FIELDS, type FieldSpec, type PartSpec } from '../config/mapping-schema.js';
import { ConnectorError } from '../errors.js';
import { cityOfAddress } from './address-city.js';
import { compileDateParser } from './parse-date.js';
import { parseNumber } from './parse-number.js';

/** A value that cannot become the field: a stable code and the reason, for the problem message. */
export class FieldFailure {
  constructor(
    readonly code: ErrorCode,
    readonly reason: string,
    /** The reason for the console, as a catalogue key. */
    readonly text: MessageText,
  ) {}
}

const EMPTY = new FieldFailure('FIELD_REQUIRED', 'is empty', { key: 'empty' });
const NOT_A_NUMBER = new FieldFailure('FIELD_INVALID', 'is not a number', { key: 'notANumber' });
const NOT_WHOLE = new FieldFailure('FIELD_INVALID', 'is not a whole number', { key: 'notWholeNumber' });

/** An empty optional field: left out of the payload. */
export const OMIT = Symbol('omit');

/** Reads one source (a column, a JSON path) from a record. */
export type SourceGetter<R> = (record: R) => unknown;

export interface CompiledField<R> {
  /** Target field name (`customer.inn`, `quantity`). */
  target: string;
  /** Source columns (CSV) or paths (JSON) it reads, for messages and consistency checks. */
  sources: readonly string[];
  /** The raw source value as text ('' when missing); `line` is the 1-based position of a line in its request. */
  read(record: R, line?: number): string | number;
  convert(raw: string | number): string | number | typeof OMIT | FieldFailure;
}

export interface CompileOptions<R> {
  decimalComma: boolean;
  /** Resolves a column name or JSON path to a getter. */
  source(ref: string): SourceGetter<R>;
  /** XML: every value a path reaches (of its first alternative that reaches any), for `latest:`. */
  sourceAll?: ((ref: string) => (record: R) => string[]) | undefined;
}

const TEMPLATE_REF = /\{([^{}]+)\}/g;

export function compileField<R>(target: string, spec: FieldSpec, options: CompileOptions<R>): CompiledField<R> {
  const { read, sources } = spec.latest ? compileLatest(spec, options) : compileRead(spec, options);
  return { target, sources, read, convert: convertFor(target, spec, options.decimalComma) };
}

/**
 * `latest: true`: of the dates a path reaches, the latest (a request's date from its lines' dates).
 * A value that is no date in the field's format is returned as it is, so that `convert` reports it.
 */
function compileLatest<R>(spec: FieldSpec, options: CompileOptions<R>): { read: (record: R) => string; sources: string[] } {
  const ref = spec.path!;
  if (options.sourceAll === undefined) throw new ConnectorError('MAPPING_INVALID', `latest: reads every value of a path, which only XML has (${ref})`);
  const all = options.sourceAll(ref);
  const parse = compileDateParser(spec.date);
  return {
    sources: [ref],
    read: (record) => {
      let latest: { raw: string; iso: string } | undefined;
      for (const raw of all(record)) {
        const iso = parse(raw.trim());
        if (iso === undefined) return raw;
        if (latest === undefined || iso > latest.iso) latest = { raw, iso };
      }
      return latest?.raw ?? '';
    },
  };
}

type Convert = CompiledField<unknown>['convert'];

/**
 * A field's `convert` depends on the spec alone (and the flow's decimal comma), not on the file: it
 * is compiled once per spec, not once per file. Many small files each compiled every field again,
 * a date format's regex included, and that was a tenth of such a file's CPU (docs/performance.md,
 * bench 8). A mapping reloaded is new spec objects, so nothing stale is kept (a `WeakMap`).
 */
const converts = new WeakMap<FieldSpec, Map<string, Convert>>();

function convertFor(target: string, spec: FieldSpec, decimalComma: boolean): Convert {
  let bySpec = converts.get(spec);
  if (bySpec === undefined) converts.set(spec, (bySpec = new Map()));
  const key = `${decimalComma ? 1 : 0}${target}`;
  let convert = bySpec.get(key);
  if (convert === undefined) bySpec.set(key, (convert = compileConvert(target, spec, decimalComma)));
  return convert;
}

function compileConvert(target: string, spec: FieldSpec, decimalComma: boolean): Convert {
  const leaf = target.slice(target.lastIndexOf('.') + 1);
  const numeric = NUMERIC_FIELDS.has(leaf) || spec.number || spec.integer;
  const integer = spec.integer;
  const parseDate = DATE_FIELDS.has(target) || spec.date !== undefined ? compileDateParser(spec.date) : undefined;
  const dateFormat = spec.date ?? 'YYYY-MM-DD';
  // ISO 4217 codes are capitals; an ERP writing "rub" means RUB (decision: see docs/assumptions.md).
  const upper = spec.upper || target === 'currency';
  const { trim, lower, optional, map, fromAddress } = spec;
  const fallback = spec.default;

  return (raw: string | number): string | number | typeof OMIT | FieldFailure => {
    let value: string | number = raw;
    if (typeof value === 'string') {
      if (trim) value = value.trim();
      if (fromAddress === 'city') value = cityOfAddress(value) ?? '';
      if (value === '' && fallback !== undefined) value = fallback;
    }
    // Own keys only: a cell reading `constructor` or `__proto__` must pass unchanged, not become
    // whatever Object.prototype holds under that name.
    if (map !== undefined && Object.hasOwn(map, String(value))) {
      const mapped = map[String(value)];
      if (mapped !== undefined) value = mapped;
    }
    if (typeof value === 'string') {
      if (value === '') return optional ? OMIT : EMPTY;
      if (upper) value = value.toUpperCase();
      else if (lower) value = value.toLowerCase();
    }
    if (numeric) {
      const number = typeof value === 'number' ? value : parseNumber(value, decimalComma);
      if (number === undefined) return NOT_A_NUMBER;
      if (integer && !Number.isInteger(number)) return NOT_WHOLE;
      return number;
    }
    const text = typeof value === 'number' ? numberAsText(value, target) : value;
    if (parseDate) {
      const iso = parseDate(text);
      if (iso === undefined)
        return new FieldFailure('FIELD_INVALID', `is not a real date in the form ${dateFormat}`, { key: 'notADate', params: { format: dateFormat } });
      return iso;
    }
    return text;
  };
}

/**
 * A number a typed cell held, read into a text field: its digits. An INN that a spreadsheet stored
 * as a number lost its leading zero (the regions 01 to 09): 9 and 11 digits get it back, as the
 * INN's own 10 and 12 digits say.
 */
function numberAsText(value: number, target: string): string {
  const text = String(value);
  if (target === 'customer.inn' && Number.isInteger(value) && (text.length === 9 || text.length === 11)) return `0${text}`;
  return text;
}

function compileRead<R>(spec: FieldSpec, options: CompileOptions<R>): { read: (record: R, line?: number) => string | number; sources: string[] } {
  if (spec.counter) {
    // Text, like every lineId read from a file: the payload's lineId is a string.
    return { read: (_record, line) => (line === undefined ? '' : String(line)), sources: [] };
  }
  if (spec.const !== undefined) {
    const constant = spec.const;
    return { read: () => constant, sources: [] };
  }
  if (spec.parts !== undefined) return compileParts(spec.parts, options);
  if (spec.template !== undefined) {
    const parts: (string | SourceGetter<R>)[] = [];
    const sources: string[] = [];
    let last = 0;
    for (const match of spec.template.matchAll(TEMPLATE_REF)) {
      parts.push(spec.template.slice(last, match.index));
      parts.push(options.source(match[1]!));
      sources.push(match[1]!);
      last = match.index + match[0].length;
    }
    parts.push(spec.template.slice(last));
    return {
      sources,
      read: (record) => {
        let out = '';
        for (const part of parts) {
          if (typeof part === 'string') {
            out += part;
            continue;
          }
          const value = cellText(part(record)).trim();
          // One empty placeholder makes the whole value empty: "-123" is not a series-number.
          if (value === '') return '';
          out += value;
        }
        return out;
      },
    };
  }
  const ref = (spec.column ?? spec.path)!;
  const get = options.source(ref);
  return { sources: [ref], read: (record) => toRawValue(get(record)) };
}

/** `parts:`: the parts that have a value, each between its prefix and suffix; empty when the first part is. */
function compileParts<R>(specs: readonly PartSpec[], options: CompileOptions<R>): { read: (record: R) => string; sources: string[] } {
  const parts = specs.map((part) => ({
    get: options.source((part.column ?? part.path)!),
    prefix: part.prefix,
    suffix: part.suffix,
    same: part.unlessSameAs === undefined ? undefined : options.source(part.unlessSameAs),
  }));
  const comparable = (text: string) => text.trim().toLowerCase();
  return {
    sources: specs.map((part) => (part.column ?? part.path)!),
    read: (record) => {
      let out = '';
      for (const [index, part] of parts.entries()) {
        const value = cellText(part.get(record)).trim();
        if (value === '') {
          if (index === 0) return '';
          continue;
        }
        if (part.same !== undefined && comparable(cellText(part.same(record))) === comparable(value)) continue;
        out += `${part.prefix}${value}${part.suffix}`;
      }
      return out;
    },
  };
}

function toRawValue(value: unknown): string | number {
  return typeof value === 'number' ? value : cellText(value);
}

/** A cell or source value as text (`''` when missing). */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
