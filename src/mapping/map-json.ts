/**
 * JSON and NDJSON → submissions: each record is one request (or confirmation), its lines at
 * `items.path` (default `items`). Row numbers are record numbers, 1-based.
 */
import type { FileHandle } from 'node:fs/promises';
import type { MappingSpec } from '../config/mapping-schema.js';
import { buildSubmission, type BuildContext } from './build-submission.js';
import { compileMapping, jsonPathGetter } from './compile-mapping.js';
import type { CompileOptions } from './compile-field.js';
import { makeProblem } from './problems.js';
import { readJsonRecords, readNdjsonRecords } from './read-json.js';
import type { MappedItem } from './types.js';

/** Map the JSON or NDJSON file open on `handle` (read from byte 0; the caller closes it). */
export async function* mapJsonFile(
  handle: FileHandle,
  spec: MappingSpec,
  format: 'json' | 'ndjson',
  ctx: BuildContext,
  signal?: AbortSignal,
): AsyncGenerator<MappedItem> {
  const options: CompileOptions<unknown> = { decimalComma: spec.json.decimalComma, source: jsonPathGetter };
  const mapping = compileMapping(spec, options, options);
  const linesOf = jsonPathGetter(spec.itemsPath ?? 'items');
  const records: AsyncIterable<unknown> | Iterable<unknown> =
    format === 'json' ? await readJsonRecords(handle, spec.json, signal) : readNdjsonRecords(handle, spec.json, signal);
  let recordNumber = 0;
  for await (const record of records) {
    recordNumber += 1;
    signal?.throwIfAborted();
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      yield {
        type: 'problem',
        problem: makeProblem(ctx.fileLabel, { row: recordNumber, field: null, code: 'MAPPING_FAILED', reason: 'is not a JSON object' }),
      };
      continue;
    }
    const lines = linesOf(record);
    if (lines !== undefined && !Array.isArray(lines)) {
      const field = spec.itemsPath ?? 'items';
      yield {
        type: 'problem',
        problem: makeProblem(ctx.fileLabel, { row: recordNumber, field, code: 'FIELD_INVALID', reason: 'must be an array of lines' }),
      };
      continue;
    }
    const items = (lines ?? []).map((line: unknown) => ({ row: recordNumber, record: line }));
    yield* buildSubmission(mapping, { firstRow: recordNumber, header: record, items, problems: [] }, ctx);
  }
}
