/**
 * A tree (JSON, NDJSON, XML) → submissions: each record is one request (or confirmation) with its
 * lines, built and validated as a table's group is. A withdrawal (`withdrawals:` of an XML mapping)
 * names the document it withdraws; one that names none withdraws something else and is read past.
 */
import type { MappingSpec } from '../config/mapping-schema.js';
import { buildSubmission, type BuildContext } from './build-submission.js';
import { compileMapping } from './compile-mapping.js';
import { compileField, FieldFailure, OMIT, type CompileOptions, type CompiledField } from './compile-field.js';
import { makeProblem } from './problems.js';
import type { TreeInput, TreeRecord } from './readers/types.js';
import type { MappedItem } from './types.js';

/** Map the records a tree reader opened. */
export async function* mapTree<N>(input: TreeInput<N>, spec: MappingSpec, ctx: BuildContext, signal?: AbortSignal): AsyncGenerator<MappedItem> {
  const options: CompileOptions<N> = { decimalComma: input.decimalComma, source: input.source, sourceAll: input.sourceAll };
  const mapping = compileMapping(spec, options, options);
  const withdrawn = spec.kind === 'requests' && spec.withdrawals ? compileField('withdrawals.id', spec.withdrawals.id, options) : undefined;
  for await (const record of input.records) {
    signal?.throwIfAborted();
    if ('notARecord' in record) {
      yield {
        kind: 'problem',
        problem: makeProblem(ctx.fileLabel, { ...record.place, field: null, code: 'MAPPING_FAILED', reason: record.notARecord, text: { key: 'notARecord' } }),
      };
      continue;
    }
    if (record.withdrawal) {
      if (withdrawn !== undefined) yield* withdrawalOf(withdrawn, record, ctx);
      continue;
    }
    if (!Array.isArray(record.lines)) {
      const { field, reason } = record.lines;
      yield { kind: 'problem', problem: makeProblem(ctx.fileLabel, { ...record.place, field, code: 'FIELD_INVALID', reason, text: { key: 'linesNotArray' } }) };
      continue;
    }
    const items = record.lines.map((line) => ({ place: line.place, record: line.node }));
    yield* buildSubmission(mapping, { first: record.place, header: record.node, items, problems: [] }, ctx);
  }
}

/** The document a withdrawal names, or nothing when it withdraws something else (its identity is empty). */
function withdrawalOf<N>(field: CompiledField<N>, record: TreeRecord<N>, ctx: BuildContext): MappedItem[] {
  const raw = field.read(record.node);
  const value = field.convert(raw);
  if (value === OMIT || (value instanceof FieldFailure && value.code === 'FIELD_REQUIRED')) return [];
  if (value instanceof FieldFailure) {
    const { code, reason, text } = value;
    return [{ kind: 'problem', problem: makeProblem(ctx.fileLabel, { ...record.place, field: 'withdrawals.id', code, reason, text, value: raw }) }];
  }
  return [{ kind: 'withdrawal', withdrawal: { documentId: String(value), row: record.place.row } }];
}
