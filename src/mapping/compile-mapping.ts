/**
 * A mapping spec compiled against one file: for a table, columns resolved to indexes once the
 * header is known; for a tree, paths compiled once by its reader. The result drives `buildSubmission`.
 */
import type { FieldSpec, FieldSpecs, MappingSpec } from '../config/mapping-schema.js';
import { compileField, type CompileOptions, type CompiledField } from './compile-field.js';
import type { CompiledMapping } from './build-submission.js';

/** The spec field that keys a group: externalId for requests, orderId for confirmations. */
export function keyFieldOf(spec: MappingSpec): FieldSpec {
  return spec.kind === 'requests' ? spec.header.externalId! : spec.orderId;
}

/** The column that groups table rows: `groupBy`, else the key field's column. */
export function groupColumnOf(spec: MappingSpec): string | undefined {
  return spec.groupBy ?? keyFieldOf(spec).column;
}

function compileAll<R>(specs: FieldSpecs, options: CompileOptions<R>): CompiledField<R>[] {
  return Object.entries(specs).map(([target, spec]) => compileField(target, spec, options));
}

export function compileMapping<H, I>(spec: MappingSpec, headerOptions: CompileOptions<H>, itemOptions: CompileOptions<I>): CompiledMapping<H, I> {
  return {
    kind: spec.kind,
    key: compileField(spec.kind === 'requests' ? 'externalId' : 'orderId', keyFieldOf(spec), headerOptions),
    header: compileAll(spec.header, headerOptions),
    items: compileAll(spec.items, itemOptions),
  };
}

/** Every column a table mapping reads, with the mapping key that names it (for COLUMN_MISSING). */
export function columnsOf(spec: MappingSpec): { column: string; key: string }[] {
  const out: { column: string; key: string }[] = [];
  const section = spec.kind === 'requests' ? 'request' : 'confirmation';
  const add = (key: string, field: FieldSpec) => {
    if (field.column !== undefined) out.push({ column: field.column, key });
    for (const match of field.template?.matchAll(/\{([^{}]+)\}/g) ?? []) out.push({ column: match[1]!, key: `${key}.template` });
  };
  if (spec.kind === 'confirmations') add('orderId', spec.orderId);
  for (const [target, field] of Object.entries(spec.header)) add(`${section}.${target}`, field);
  for (const [target, field] of Object.entries(spec.items)) add(`items.${target}`, field);
  const group = groupColumnOf(spec);
  if (spec.groupBy !== undefined && group !== undefined) out.push({ column: group, key: 'groupBy' });
  return out;
}
