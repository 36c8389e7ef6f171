/**
 * A mapping spec compiled against one file: for a table, columns resolved to indexes once the
 * header is known; for a tree, paths compiled once by its reader. The result drives `buildSubmission`.
 */
import type { FieldSpec, FieldSpecs, MappingSpec } from '../config/mapping-schema.js';
import { keyFieldOf } from '../config/mapping-sources.js';
import { compileField, type CompileOptions, type CompiledField } from './compile-field.js';
import type { CompiledMapping } from './build-submission.js';

function compileAll<R>(specs: FieldSpecs, options: CompileOptions<R>): CompiledField<R>[] {
  return Object.entries(specs).map(([target, spec]) => compileField(target, spec, options));
}

export function compileMapping<H, I>(spec: MappingSpec, headerOptions: CompileOptions<H>, itemOptions: CompileOptions<I>): CompiledMapping<H, I> {
  const document = spec.kind === 'requests' ? spec.document : undefined;
  const optional = (target: string, field: FieldSpec | undefined) => (field === undefined ? undefined : compileField(target, field, headerOptions));
  return {
    kind: spec.kind,
    key: compileField(spec.kind === 'requests' ? 'externalId' : 'orderId', keyFieldOf(spec), headerOptions),
    header: compileAll(spec.header, headerOptions),
    items: compileAll(spec.items, itemOptions),
    ...(document && {
      document: {
        id: compileField('document.id', document.id, headerOptions),
        number: optional('document.number', document.number),
        date: optional('document.date', document.date),
      },
    }),
  };
}
