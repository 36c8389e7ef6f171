/**
 * A tree (JSON, NDJSON, XML) → submissions: each record is one request (or confirmation) with its
 * lines, built and validated as a table's group is.
 */
import type { MappingSpec } from '../config/mapping-schema.js';
import { buildSubmission, type BuildContext } from './build-submission.js';
import { compileMapping } from './compile-mapping.js';
import type { CompileOptions } from './compile-field.js';
import { makeProblem } from './problems.js';
import type { TreeInput } from './readers/types.js';
import type { MappedItem } from './types.js';

/** Map the records a tree reader opened. */
export async function* mapTree<N>(input: TreeInput<N>, spec: MappingSpec, ctx: BuildContext, signal?: AbortSignal): AsyncGenerator<MappedItem> {
  const options: CompileOptions<N> = { decimalComma: input.decimalComma, source: input.source };
  const mapping = compileMapping(spec, options, options);
  for await (const record of input.records) {
    signal?.throwIfAborted();
    if ('notARecord' in record) {
      yield {
        kind: 'problem',
        problem: makeProblem(ctx.fileLabel, { ...record.place, field: null, code: 'MAPPING_FAILED', reason: record.notARecord, text: { key: 'notARecord' } }),
      };
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
