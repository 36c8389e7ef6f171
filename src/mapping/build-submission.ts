/**
 * One request (or confirmation) from its records: convert every field, assemble the payload,
 * validate it, and return either one submission or only problems (never a partial payload).
 */
import type { MappingSpec } from '../config/mapping-schema.js';
import { FieldFailure, OMIT, type CompiledField } from './compile-field.js';
import { makeProblem } from './problems.js';
import type { DocumentRef, MappedItem } from './types.js';
import { validateConfirmation } from './validate-confirmation.js';
import type { FieldIssue } from './field-issues.js';
import { validateRequest } from './validate-request.js';
import { type MappingProblem } from '../shared/types.js';
import type { Place } from './readers/types.js';

/** The fields of one mapping, compiled for header records `H` and line records `I`. */
export interface CompiledMapping<H, I> {
  kind: MappingSpec['kind'];
  /** The request's externalId, or the confirmation's orderId. */
  key: CompiledField<H>;
  header: CompiledField<H>[];
  items: CompiledField<I>[];
  /** `document:`: the identity of the document in its source system, its number and its date. */
  document?: { id: CompiledField<H>; number: CompiledField<H> | undefined; date: CompiledField<H> | undefined };
}

export interface GroupInput<H, I> {
  /** Where the request starts. */
  first: Place;
  header: H;
  items: { place: Place; record: I }[];
  /** Problems found while gathering the rows (disagreeing rows, …). */
  problems: MappingProblem[];
  /**
   * Where one field's value was read: a table names its cell (the column's, on the row the value
   * came from); by default the place of the record or line.
   */
  locate?: (field: CompiledField<unknown>, item: number | null) => Place;
}

export interface BuildContext {
  fileLabel: string;
  now: Date;
  rejectPastDates: boolean;
}

/** Build one submission or its problems. */
export function buildSubmission<H, I>(mapping: CompiledMapping<H, I>, group: GroupInput<H, I>, ctx: BuildContext): MappedItem[] {
  const problems = [...group.problems];
  const failed = new Set<string>();
  const keyRaw = mapping.key.read(group.header);
  const keyValue = mapping.key.convert(keyRaw);
  const externalId = typeof keyValue === 'string' ? keyValue : String(keyRaw).trim();
  const placeOf = (field: CompiledField<unknown> | undefined, item: number | null): Place =>
    field !== undefined && group.locate !== undefined ? group.locate(field, item) : item === null ? group.first : (group.items[item]?.place ?? group.first);
  const read = readDocument(mapping.document, group.header);
  const ref = read?.ref;
  const problemOf = { externalId, document: ref };
  const fail = (place: Place, field: string, raw: string | number, failure: FieldFailure) => {
    failed.add(field);
    problems.push(makeProblem(ctx.fileLabel, { ...place, field, code: failure.code, reason: failure.reason, text: failure.text, value: raw, ...problemOf }));
  };
  for (const failure of read?.failures ?? []) fail(placeOf(failure.field as CompiledField<unknown>, null), failure.field.target, failure.raw, failure.failure);

  const payload: Record<string, unknown> = {};
  for (const field of mapping.header) {
    const raw = field.read(group.header);
    const value = field.convert(raw);
    if (value instanceof FieldFailure) fail(placeOf(field as CompiledField<unknown>, null), field.target, raw, value);
    else if (value !== OMIT) setPath(payload, field.target, value);
  }
  const items: Record<string, unknown>[] = [];
  group.items.forEach(({ record }, index) => {
    const item: Record<string, unknown> = {};
    for (const field of mapping.items) {
      const raw = field.read(record, index + 1);
      const value = field.convert(raw);
      if (value instanceof FieldFailure) fail(placeOf(field as CompiledField<unknown>, index), `items[${index}].${field.target}`, raw, value);
      else if (value !== OMIT) item[field.target] = value;
    }
    items.push(item);
  });
  payload.items = items;

  const orderId = mapping.kind === 'confirmations' && typeof keyValue === 'string' ? keyValue : undefined;
  if (mapping.kind === 'confirmations' && keyValue instanceof FieldFailure)
    fail(placeOf(mapping.key as CompiledField<unknown>, null), 'orderId', keyRaw, keyValue);
  const issues: FieldIssue[] = mapping.kind === 'requests' ? validateRequest(payload, ctx) : validateConfirmation(orderId, payload);
  for (const issue of issues) {
    if (failed.has(issue.field)) continue;
    const { field, item } = compiledFieldOf(mapping, issue.field);
    problems.push(
      makeProblem(ctx.fileLabel, {
        ...placeOf(field as CompiledField<unknown> | undefined, item),
        field: issue.field,
        code: issue.code,
        reason: issue.reason,
        text: issue.text,
        value: rawValueOf(mapping, group, issue.field, keyRaw),
        ...problemOf,
      }),
    );
  }
  if (problems.length > 0) return problems.map((problem) => ({ kind: 'problem', problem }));

  if (mapping.kind === 'requests') {
    const submission = { kind: 'request' as const, externalId, payload: payload as never, firstRow: group.first.row };
    return [{ kind: 'submission', submission: ref === undefined ? submission : { ...submission, document: ref } }];
  }
  return [{ kind: 'submission', submission: { kind: 'confirmation', externalId, orderId: externalId, payload: payload as never, firstRow: group.first.row } }];
}

interface DocumentRead<H> {
  /** Undefined when the identity is empty or invalid (then `failures` says why). */
  ref: DocumentRef | undefined;
  failures: { field: CompiledField<H>; raw: string | number; failure: FieldFailure }[];
}

/** The document's identity, number and date, read before anything else so that every problem of the request can name its document. */
function readDocument<H>(document: CompiledMapping<H, unknown>['document'], header: H): DocumentRead<H> | undefined {
  if (document === undefined) return undefined;
  const failures: DocumentRead<H>['failures'] = [];
  const value = (field: CompiledField<H> | undefined): string | null => {
    if (field === undefined) return null;
    const raw = field.read(header);
    const converted = field.convert(raw);
    if (converted instanceof FieldFailure) {
      failures.push({ field, raw, failure: converted });
      return null;
    }
    return converted === OMIT ? null : String(converted);
  };
  const id = value(document.id);
  const ref = id === null ? undefined : { id, number: value(document.number), date: value(document.date) };
  return { ref, failures };
}

const ITEM_FIELD = /^items\[(\d+)\](?:\.(.+))?$/;

/** The compiled field behind a reported field (`items[2].quantity`, `customer.inn`), and its line. */
function compiledFieldOf<H, I>(mapping: CompiledMapping<H, I>, field: string): { field: CompiledField<H> | CompiledField<I> | undefined; item: number | null } {
  if (field === 'orderId') return { field: mapping.key, item: null };
  const match = ITEM_FIELD.exec(field);
  if (match) return { field: match[2] === undefined ? undefined : mapping.items.find((f) => f.target === match[2]), item: Number(match[1]) };
  return { field: mapping.header.find((f) => f.target === field), item: null };
}

/** The source value behind a reported field, as the file wrote it (`10,555`, not `10.555`). */
function rawValueOf<H, I>(mapping: CompiledMapping<H, I>, group: GroupInput<H, I>, field: string, keyRaw: string | number): string | number | undefined {
  if (field === 'orderId') return keyRaw;
  const match = /^items\[(\d+)\]\.(.+)$/.exec(field);
  if (match) {
    const record = group.items[Number(match[1])]?.record;
    const compiled = mapping.items.find((f) => f.target === match[2]);
    return record === undefined || compiled === undefined ? undefined : compiled.read(record, Number(match[1]) + 1);
  }
  return mapping.header.find((f) => f.target === field)?.read(group.header);
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const dot = path.indexOf('.');
  if (dot === -1) {
    target[path] = value;
    return;
  }
  const head = path.slice(0, dot);
  const child = (target[head] ??= {}) as Record<string, unknown>;
  setPath(child, path.slice(dot + 1), value);
}
