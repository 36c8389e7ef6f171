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
import { buildSubmission, type BuildContext, type CompiledMapping, type GroupInput } from './build-submission.js';
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
    if (found === undefined) throw new ConnectorError('FILE_UNREADABLE', 'has no header row', { text: { key: 'noHeader' } });
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
        yield { kind: 'problem', problem: { ...problem, field: column } };
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

/**
 * The rows, one at a time: a row is skipped, or has no key (a problem), or opens the next group
 * (and emits the one before), or is checked against its group's first row; then it is kept as a
 * line, or is a problem of a key that came back. It runs per row of every file: the steps are
 * plain functions of the plan, decided once per table, so a row makes no closure; it allocates
 * only a kept line, a new group and the problems it finds.
 */
async function* mapRows(found: TableHeader, input: TableInput, spec: MappingSpec, ctx: BuildContext, signal?: AbortSignal): AsyncGenerator<MappedItem> {
  const plan = planTable(found, input, spec);
  const emitted = new CompactKeySet();
  let group: OpenGroup | undefined;
  let count = 0;
  for await (const { row, cells } of found.dataRows()) {
    count += 1;
    if ((count & 1023) === 0) signal?.throwIfAborted();
    if (plan.skipRow(cells)) continue;
    const key = groupKeyOf(plan, cells, group);
    if (key === '') {
      yield emptyKeyProblem(plan, ctx.fileLabel, row);
      continue;
    }
    if (group === undefined || key !== group.key) {
      if (group !== undefined) yield* finishGroup(plan, ctx, emitted, group);
      group = openGroup(plan, key, row, cells, emitted.has(key));
    } else if (!group.returning && group.items.length < MAX_KEPT_ROWS) {
      checkRequestCells(plan, ctx.fileLabel, group, row, cells);
    }
    if (group.returning) {
      // Yielded at once, not gathered: a file of one key coming back row after row must not
      // build its whole list in memory before the problem limit can stop it.
      yield notAdjacentProblem(plan, ctx.fileLabel, row, key);
    } else if (group.items.length < MAX_KEPT_ROWS && !isHeading(plan, cells)) {
      group.items.push({ place: { row }, record: cells });
    }
  }
  if (group !== undefined) yield* finishGroup(plan, ctx, emitted, group);
}

/** What mapping the rows of one table needs, decided once from its header and the mapping. */
interface TablePlan {
  mapping: CompiledMapping<Row, Row>;
  groupColumn: string;
  groupIndex: number;
  /** The request-level columns a later row of a group must agree on (all but the group column). */
  headerChecks: { field: string; column: string; index: number }[];
  /** The field the group key fills, in problems. */
  keyTarget: 'externalId' | 'orderId';
  skipRow: (cells: Row) => boolean;
  /** The columns filled down (`fillDownColumns`). */
  fill: Set<number>;
  /** The columns the line fields read. */
  lineColumns: number[];
  placeAt: (row: number, column: number) => Place;
  /** Where a built field's problem points, in a group. */
  locate: (group: OpenGroup) => (field: CompiledField<unknown>, item: number | null) => Place;
}

function planTable(found: TableHeader, input: TableInput, spec: MappingSpec): TablePlan {
  const options: CompileOptions<Row> = {
    decimalComma: input.decimalComma,
    source: (column) => {
      const index = found.indexOf(column);
      return (row) => row[index] ?? '';
    },
  };
  const mapping = compileMapping(spec, options, options);
  const groupColumn = groupColumnOf(spec)!;
  const placeAt = (row: number, column: number): Place => (input.cellRef === undefined ? { row } : { row, cell: input.cellRef(row, column) });
  return {
    mapping,
    groupColumn,
    groupIndex: found.indexOf(groupColumn),
    headerChecks: mapping.header.flatMap((field) =>
      field.sources.filter((column) => column !== groupColumn).map((column) => ({ field: field.target, column, index: found.indexOf(column) })),
    ),
    keyTarget: spec.kind === 'requests' ? 'externalId' : 'orderId',
    skipRow: compileSkipRows(spec.skipRows),
    fill: fillDownColumns(spec, mapping.header, found.indexOf, groupColumn),
    lineColumns: mapping.items.flatMap((field) => field.sources.map((column) => found.indexOf(column))).filter((index) => index !== -1),
    placeAt,
    locate:
      (group: OpenGroup) =>
      (field: CompiledField<unknown>, item: number | null): Place => {
        const row = item === null ? group.first.row : (group.items[item]?.place.row ?? group.first.row);
        const column = field.sources.length > 0 ? found.indexOf(field.sources[0]!) : -1;
        return column === -1 ? { row } : placeAt(row, column);
      },
  };
}

/** The row's group key; with fill-down, a blank one continues the open group. */
function groupKeyOf(plan: TablePlan, cells: Row, group: OpenGroup | undefined): string {
  const key = cellText(cells[plan.groupIndex]).trim();
  if (key === '' && group !== undefined && plan.fill.has(plan.groupIndex)) return group.key;
  return key;
}

function openGroup(plan: TablePlan, key: string, row: number, cells: Row, returning: boolean): OpenGroup {
  // Fill-down writes into the request's cells: a copy, not the reader's row.
  const header = plan.fill.size > 0 ? [...cells] : cells;
  const open: OpenGroup = { key, first: { row }, header, items: [], problems: [], returning, filledFrom: new Map() };
  open.locate = plan.locate(open);
  return open;
}

/**
 * A later row of a group against its request-level cells: with fill-down, a blank cell takes the
 * request's value and a value fills the request's blank; any other difference is a problem.
 */
function checkRequestCells(plan: TablePlan, fileLabel: string, group: OpenGroup, row: number, cells: Row): void {
  for (const check of plan.headerChecks) {
    const here = cellText(cells[check.index]).trim();
    const there = cellText(group.header[check.index]).trim();
    if (plan.fill.has(check.index)) {
      if (here === '') continue;
      if (there === '') {
        (group.header as Cell[])[check.index] = cells[check.index]!;
        group.filledFrom.set(check.index, row);
        continue;
      }
    }
    if (here !== there) {
      group.problems.push(
        makeProblem(fileLabel, {
          ...plan.placeAt(row, check.index),
          field: check.field,
          code: 'FIELD_INVALID',
          reason: `disagrees with row ${group.first.row} ("${there}") of the same ${plan.keyTarget} in column "${check.column}"`,
          text: { key: 'groupDisagrees', params: { row: group.first.row, value: there, column: check.column } },
          value: here,
          externalId: group.key,
        }),
      );
    }
  }
}

/** With fill-down, a row whose line columns are all blank is its request's heading, not a line. */
function isHeading(plan: TablePlan, cells: Row): boolean {
  return plan.fill.size > 0 && plan.lineColumns.length > 0 && plan.lineColumns.every((index) => cellText(cells[index]).trim() === '');
}

function finishGroup(plan: TablePlan, ctx: BuildContext, emitted: CompactKeySet, open: OpenGroup): MappedItem[] {
  emitted.add(open.key);
  // A returning group's problems were yielded row by row.
  if (open.returning) return [];
  return buildSubmission(plan.mapping, open, ctx);
}

function emptyKeyProblem(plan: TablePlan, fileLabel: string, row: number): MappedItem {
  return {
    kind: 'problem',
    problem: makeProblem(fileLabel, {
      ...plan.placeAt(row, plan.groupIndex),
      field: plan.keyTarget,
      code: 'FIELD_REQUIRED',
      reason: `is empty (column "${plan.groupColumn}" groups the rows)`,
      text: { key: 'groupEmpty', params: { column: plan.groupColumn } },
    }),
  };
}

function notAdjacentProblem(plan: TablePlan, fileLabel: string, row: number, key: string): MappedItem {
  return {
    kind: 'problem',
    problem: makeProblem(fileLabel, {
      ...plan.placeAt(row, plan.groupIndex),
      field: plan.keyTarget,
      code: 'MAPPING_FAILED',
      reason: `appears again after its rows ended: rows of one ${plan.keyTarget} must be adjacent`,
      text: { key: 'groupNotAdjacent' },
      value: key,
      externalId: key,
    }),
  };
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
