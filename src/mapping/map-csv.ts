/**
 * CSV → submissions, streaming: one row per line, adjacent rows with the same group key form one
 * request (ERP exports write them together), and a request is emitted as soon as its key changes.
 *
 * Decisions (README, Assumptions):
 * - A key that comes back after its request was emitted is not merged (that would mean buffering
 *   the whole file): each returning row is a `MAPPING_FAILED` problem.
 * - Request-level columns come from the group's first row; a later row that disagrees on one is a
 *   `FIELD_INVALID` problem, and the request is not submitted (it is ambiguous which is right).
 * - Rows shorter than the header read the missing cells as empty; extra cells are ignored.
 */
import type { FileHandle } from 'node:fs/promises';
import type { MappingSpec } from '../config/mapping-schema.js';
import { ConnectorError } from '../errors.js';
import { FIELD_LIMITS } from '../platform/contract.js';
import { buildSubmission, type BuildContext, type GroupInput } from './build-submission.js';
import { CompactKeySet } from './compact-key-set.js';
import { columnsOf, compileMapping, groupColumnOf } from './compile-mapping.js';
import type { CompileOptions } from './compile-field.js';
import { makeProblem } from './problems.js';
import { readCsvRecords } from './read-csv.js';
import type { MappedItem } from './types.js';

type Row = string[];

/**
 * Rows kept of one group: one more than a request may have lines, so that the schema still says
 * "at most 1000" for it; the rest of an over-long group is read and dropped. Memory per group is
 * then bounded whatever the file holds (a single group of millions of rows is not a request).
 */
const MAX_KEPT_ROWS = FIELD_LIMITS.maxItems + 1;

interface OpenGroup extends GroupInput<Row, Row> {
  key: string;
  /** The key was already emitted earlier in the file: every row is a problem, nothing is built. */
  returning: boolean;
}

/** Map the CSV file open on `handle` (read from byte 0; the caller closes it). */
export async function* mapCsvFile(handle: FileHandle, spec: MappingSpec, ctx: BuildContext, signal?: AbortSignal): AsyncGenerator<MappedItem> {
  const records = readCsvRecords(handle, spec.csv, signal);
  try {
    const first = await records.next();
    if (first.done) throw new ConnectorError('FILE_UNREADABLE', 'has no header row');
    const header = first.value.map((name) => name.trim());

    const missing = columnsOf(spec).filter(({ column }) => !header.includes(column));
    if (missing.length > 0) {
      for (const { column, key } of dedupeColumns(missing)) {
        const problem = makeProblem(ctx.fileLabel, {
          row: null,
          field: null,
          code: 'COLUMN_MISSING',
          reason: `column "${column}" (named by ${key}) is not in the header`,
        });
        yield { type: 'problem', problem: { ...problem, field: column } };
      }
      return;
    }

    const options: CompileOptions<Row> = {
      decimalComma: spec.csv.decimalComma,
      source: (column) => {
        const index = header.indexOf(column);
        return (row) => row[index] ?? '';
      },
    };
    const mapping = compileMapping(spec, options, options);
    const groupIndex = header.indexOf(groupColumnOf(spec)!);
    const groupColumn = header[groupIndex]!;
    const headerChecks = mapping.header.flatMap((field) =>
      field.sources.filter((column) => column !== groupColumn).map((column) => ({ field: field.target, column, index: header.indexOf(column) })),
    );
    const keyTarget = spec.kind === 'requests' ? 'externalId' : 'orderId';

    const emitted = new CompactKeySet();
    let group: OpenGroup | undefined;
    let rowNumber = 0;
    const finish = (open: OpenGroup): MappedItem[] => {
      emitted.add(open.key);
      // A returning group's problems were yielded row by row.
      if (open.returning) return [];
      return buildSubmission(mapping, open, ctx);
    };

    for await (const row of records) {
      rowNumber += 1;
      if ((rowNumber & 1023) === 0) signal?.throwIfAborted();
      const key = (row[groupIndex] ?? '').trim();
      if (key === '') {
        yield {
          type: 'problem',
          problem: makeProblem(ctx.fileLabel, {
            row: rowNumber,
            field: keyTarget,
            code: 'FIELD_REQUIRED',
            reason: `is empty (column "${groupColumn}" groups the rows)`,
          }),
        };
        continue;
      }
      if (group === undefined || key !== group.key) {
        if (group !== undefined) yield* finish(group);
        group = { key, firstRow: rowNumber, header: row, items: [], problems: [], returning: emitted.has(key) };
      } else if (!group.returning && group.items.length < MAX_KEPT_ROWS) {
        for (const check of headerChecks) {
          const here = (row[check.index] ?? '').trim();
          const there = (group.header[check.index] ?? '').trim();
          if (here !== there) {
            group.problems.push(
              makeProblem(ctx.fileLabel, {
                row: rowNumber,
                field: check.field,
                code: 'FIELD_INVALID',
                reason: `disagrees with row ${group.firstRow} ("${there}") of the same ${keyTarget} in column "${check.column}"`,
                value: here,
                externalId: key,
              }),
            );
          }
        }
      }
      if (group.returning) {
        // Yielded at once, not gathered: a file of one key coming back row after row must not
        // build its whole list in memory before the problem limit can stop it.
        yield {
          type: 'problem',
          problem: makeProblem(ctx.fileLabel, {
            row: rowNumber,
            field: keyTarget,
            code: 'MAPPING_FAILED',
            reason: `appears again after its rows ended: rows of one ${keyTarget} must be adjacent`,
            value: key,
            externalId: key,
          }),
        };
      } else if (group.items.length < MAX_KEPT_ROWS) {
        group.items.push({ row: rowNumber, record: row });
      }
    }
    if (group !== undefined) yield* finish(group);
  } finally {
    await records.return(undefined);
  }
}

function dedupeColumns(missing: { column: string; key: string }[]): { column: string; key: string }[] {
  const byColumn = new Map<string, string[]>();
  for (const { column, key } of missing) byColumn.set(column, [...(byColumn.get(column) ?? []), key]);
  return [...byColumn].map(([column, keys]) => ({ column, key: keys.join(', ') }));
}
