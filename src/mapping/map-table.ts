/**
 * A table (CSV, XLSX) → submissions, streaming: the header found, then one row per line, adjacent
 * rows with the same group key form one request (ERP exports write them together), and a request
 * is emitted as soon as its key changes.
 *
 * Decisions (docs/assumptions.md):
 * - A key that comes back after its request was emitted is not merged (that would mean buffering
 *   the whole file): each returning row is a `MAPPING_FAILED` problem.
 * - Request-level columns come from the group's first row; a later row that disagrees on one is a
 *   `FIELD_INVALID` problem, and the request is not submitted (it is ambiguous which is right).
 * - Rows shorter than the header read the missing cells as empty; extra cells are ignored.
 * - Blank rows and totals rows (`skipRows:`) are skipped before anything else.
 * - Fill-down (`fillDown:`, for a grouped report that writes the document number and its
 *   request-level columns once, above or on the first of its lines): a blank group cell continues
 *   the open request; a blank request-level cell takes the request's value (from whichever of its
 *   rows has one, never from another request), and is no disagreement; a row whose line columns
 *   are all blank is the request's heading, not a line.
 */
import type { MappingSpec } from '../config/mapping-schema.js';
import { ConnectorError } from '../errors.js';
import { FIELD_LIMITS } from '../platform/contract.js';
import { buildSubmission, type BuildContext, type GroupInput } from './build-submission.js';
import { CompactKeySet } from './compact-key-set.js';
import { columnsOf, groupColumnOf } from '../config/mapping-sources.js';
import { compileMapping } from './compile-mapping.js';
import { cellText, type CompileOptions, type CompiledField } from './compile-field.js';
import { findHeader, type TableHeader } from './find-header.js';
import { makeProblem } from './problems.js';
import { compileSkipRows } from './skip-rows.js';
import type { Cell, Place, TableInput } from './readers/types.js';
import type { MappedItem } from './types.js';

type Row = readonly Cell[];

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
  /** Fill-down: the row each filled request-level cell came from, by column. */
  filledFrom: Map<number, number>;
}

/** Map the table a reader opened (its rows are released when this ends). */
export async function* mapTable(input: TableInput, spec: MappingSpec, ctx: BuildContext, signal?: AbortSignal): AsyncGenerator<MappedItem> {
  const rows = input.rows;
  try {
    const found = await findHeader(
      rows,
      input,
      columnsOf(spec).map(({ column }) => column),
    );
    if (found === undefined) throw new ConnectorError('FILE_UNREADABLE', 'has no header row');
    const missing = columnsOf(spec).filter(({ column }) => found.indexOf(column) === -1);
    if (missing.length > 0) {
      for (const { column, key } of dedupeColumns(missing)) {
        const problem = makeProblem(ctx.fileLabel, {
          row: null,
          field: null,
          code: 'COLUMN_MISSING',
          reason: `column "${column}" (named by ${key}) is not in the header${found.where === undefined ? '' : ` (${found.where})`}`,
          text: { key: 'columnMissing', params: { column, key } },
        });
        yield { type: 'problem', problem: { ...problem, field: column } };
      }
      return;
    }
    // Past the last mapped column nothing is read: a workbook's rows need not be laid out there.
    input.narrow?.(1 + Math.max(...columnsOf(spec).map(({ column }) => found.indexOf(column))));
    yield* mapRows(found, input, spec, ctx, signal);
  } finally {
    await rows.return(undefined);
  }
}

async function* mapRows(found: TableHeader, input: TableInput, spec: MappingSpec, ctx: BuildContext, signal?: AbortSignal): AsyncGenerator<MappedItem> {
  const options: CompileOptions<Row> = {
    decimalComma: input.decimalComma,
    source: (column) => {
      const index = found.indexOf(column);
      return (row) => row[index] ?? '';
    },
  };
  const mapping = compileMapping(spec, options, options);
  const groupColumn = groupColumnOf(spec)!;
  const groupIndex = found.indexOf(groupColumn);
  const headerChecks = mapping.header.flatMap((field) =>
    field.sources.filter((column) => column !== groupColumn).map((column) => ({ field: field.target, column, index: found.indexOf(column) })),
  );
  const keyTarget = spec.kind === 'requests' ? 'externalId' : 'orderId';
  const skipRow = compileSkipRows(spec.skipRows);
  const fill = fillDownColumns(spec, mapping.header, found.indexOf, groupColumn);
  const lineColumns = mapping.items.flatMap((field) => field.sources.map((column) => found.indexOf(column))).filter((index) => index !== -1);
  const isHeading = (cells: Row) => fill.size > 0 && lineColumns.length > 0 && lineColumns.every((index) => cellText(cells[index]).trim() === '');
  const placeAt = (row: number, column: number): Place => (input.cellRef === undefined ? { row } : { row, cell: input.cellRef(row, column) });
  const locate =
    (group: OpenGroup) =>
    (field: CompiledField<unknown>, item: number | null): Place => {
      const row = item === null ? group.first.row : (group.items[item]?.place.row ?? group.first.row);
      const column = field.sources.length > 0 ? found.indexOf(field.sources[0]!) : -1;
      return column === -1 ? { row } : placeAt(row, column);
    };

  const emitted = new CompactKeySet();
  let group: OpenGroup | undefined;
  let count = 0;
  const finish = (open: OpenGroup): MappedItem[] => {
    emitted.add(open.key);
    // A returning group's problems were yielded row by row.
    if (open.returning) return [];
    return buildSubmission(mapping, open, ctx);
  };

  for await (const { row, cells } of found.dataRows()) {
    count += 1;
    if ((count & 1023) === 0) signal?.throwIfAborted();
    if (skipRow(cells)) continue;
    let key = cellText(cells[groupIndex]).trim();
    if (key === '' && group !== undefined && fill.has(groupIndex)) key = group.key;
    if (key === '') {
      yield {
        type: 'problem',
        problem: makeProblem(ctx.fileLabel, {
          ...placeAt(row, groupIndex),
          field: keyTarget,
          code: 'FIELD_REQUIRED',
          reason: `is empty (column "${groupColumn}" groups the rows)`,
          text: { key: 'groupEmpty', params: { column: groupColumn } },
        }),
      };
      continue;
    }
    if (group === undefined || key !== group.key) {
      if (group !== undefined) yield* finish(group);
      // Fill-down writes into the request's cells: a copy, not the reader's row.
      const header = fill.size > 0 ? [...cells] : cells;
      const open: OpenGroup = { key, first: { row }, header, items: [], problems: [], returning: emitted.has(key), filledFrom: new Map() };
      open.locate = locate(open);
      group = open;
    } else if (!group.returning && group.items.length < MAX_KEPT_ROWS) {
      for (const check of headerChecks) {
        const here = cellText(cells[check.index]).trim();
        const there = cellText(group.header[check.index]).trim();
        if (fill.has(check.index)) {
          if (here === '') continue;
          if (there === '') {
            (group.header as Cell[])[check.index] = cells[check.index]!;
            group.filledFrom.set(check.index, row);
            continue;
          }
        }
        if (here !== there) {
          group.problems.push(
            makeProblem(ctx.fileLabel, {
              ...placeAt(row, check.index),
              field: check.field,
              code: 'FIELD_INVALID',
              reason: `disagrees with row ${group.first.row} ("${there}") of the same ${keyTarget} in column "${check.column}"`,
              text: { key: 'groupDisagrees', params: { row: group.first.row, value: there, column: check.column } },
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
          ...placeAt(row, groupIndex),
          field: keyTarget,
          code: 'MAPPING_FAILED',
          reason: `appears again after its rows ended: rows of one ${keyTarget} must be adjacent`,
          text: { key: 'groupNotAdjacent' },
          value: key,
          externalId: key,
        }),
      };
    } else if (group.items.length < MAX_KEPT_ROWS && !isHeading(cells)) {
      group.items.push({ place: { row }, record: cells });
    }
  }
  if (group !== undefined) yield* finish(group);
}

/** The indexes of the columns filled down: `true` means the group column and every request-level column. */
function fillDownColumns(spec: MappingSpec, header: readonly CompiledField<Row>[], indexOf: (name: string) => number, groupColumn: string): Set<number> {
  if (spec.fillDown === false) return new Set();
  const names = spec.fillDown === true ? [groupColumn, ...header.flatMap((field) => field.sources)] : spec.fillDown;
  return new Set(names.map(indexOf).filter((index) => index !== -1));
}

function dedupeColumns(missing: { column: string; key: string }[]): { column: string; key: string }[] {
  const byColumn = new Map<string, string[]>();
  for (const { column, key } of missing) byColumn.set(column, [...(byColumn.get(column) ?? []), key]);
  return [...byColumn].map(([column, keys]) => ({ column, key: keys.join(', ') }));
}
