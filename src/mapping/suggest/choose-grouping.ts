/**
 * The CSV column that groups rows into requests (`groupBy`): the one whose value repeats over
 * adjacent rows while the line columns change, and never comes back once its rows ended (the
 * daemon maps adjacent rows only). A name from the dictionary decides between candidates; without
 * one, the column that splits the rows into the most requests does, if it is the only one. By
 * content, a run of equal values in which a line column (one named like `items.lineId`) repeats
 * is not one request: single-line requests that share a city are not merged. Without a line
 * column, the reason does not claim the lines change.
 */
import { CONFIDENCE_THRESHOLD } from './types.js';
import { matchName } from './names.js';
import type { ColumnProfile } from './profile-column.js';
import { shown } from './shown.js';
import { phrase, type Phrase } from './summary-words.js';

export interface GroupKey {
  /** The chosen column; undefined when none fits. */
  column: string | undefined;
  confidence: number;
  /** Why this column groups the rows (the `groupBy` comment, the summary's grouping). */
  reason: Phrase;
  /** Why it is the key field too (the `externalId`/`orderId` comment). */
  keyReason: Phrase;
  /** The request of each data row (each row its own when there is no key). */
  groups: number[];
  /** Requests counted in the sample. */
  count: number;
  /** Something the user must know about the key (rows that are not adjacent). */
  warning?: Phrase;
}

interface Runs {
  /** Distinct non-empty values. */
  distinct: number;
  /** Maximal runs of one value over adjacent rows. */
  runs: number;
  /** A value that comes back after other rows, and the 1-based row where it does. */
  returning?: { value: string; row: number };
}

function runsOf(values: readonly string[]): Runs {
  const seen = new Set<string>();
  let runs = 0;
  let previous: string | undefined;
  let returning: Runs['returning'];
  values.forEach((value, index) => {
    if (value === '' || value === previous) return;
    previous = value;
    runs += 1;
    if (seen.has(value)) returning ??= { value, row: index + 1 };
    seen.add(value);
  });
  return { distinct: seen.size, runs, ...(returning ? { returning } : {}) };
}

/** The request of each row when `values` group them (an empty key stays with the request above). */
export function groupsBy(values: readonly string[]): { groups: number[]; count: number } {
  const groups: number[] = [];
  let group = -1;
  let previous: string | undefined;
  for (const value of values) {
    if (value !== '' && value !== previous) {
      group += 1;
      previous = value;
    }
    groups.push(Math.max(group, 0));
  }
  return { groups, count: group + 1 };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** The target whose columns number the lines: within one request their values must change. */
const LINE_TARGET = 'items.lineId';

/** Whether `line` repeats no value within any group of rows that `groups` gives (an empty line cell counts). */
function changesWithin(line: readonly string[], groups: readonly number[]): boolean {
  const seen = new Map<number, Set<string>>();
  return line.every((value, row) => {
    const group = groups[row] ?? row;
    const values = seen.get(group) ?? new Set<string>();
    if (values.has(value)) return false;
    values.add(value);
    seen.set(group, values);
    return true;
  });
}

/** Choose the grouping column among `profiles` for the key field `keyTarget` (`request.externalId`, `orderId`). */
export function chooseGroupKey(profiles: readonly ColumnProfile[], keyTarget: string, rowCount: number, noun: 'request' | 'order'): GroupKey {
  const ungrouped = (reason: Phrase): GroupKey => ({
    column: undefined,
    confidence: 0,
    reason,
    keyReason: reason,
    groups: Array.from({ length: rowCount }, (_, row) => row),
    count: rowCount,
  });
  const candidates = profiles.map((profile) => ({ profile, runs: runsOf(profile.column.values), name: matchName(keyTarget, profile.column.name) }));
  const usable = (candidate: (typeof candidates)[number]) => candidate.profile.filled === 1 && candidate.runs.returning === undefined;
  const describe = (candidate: (typeof candidates)[number]) =>
    phrase(noun === 'request' ? 'summary.why.requestsInRows' : 'summary.why.ordersInRows', { n: candidate.runs.runs, rows: rowCount });

  const named = candidates.filter((candidate) => (candidate.name?.score ?? 0) >= CONFIDENCE_THRESHOLD).sort((a, b) => b.name!.score - a.name!.score);
  // A named column that groups cleanly beats a better-named one whose rows are scattered.
  const byName = named.find(usable) ?? named[0];
  if (byName !== undefined) {
    const { groups, count } = groupsBy(byName.profile.column.values);
    const orderIds = byName.profile.orderId >= 0.9;
    const named = phrase(orderIds ? 'summary.why.namedOrderIds' : 'summary.why.named', { column: shown(byName.profile.column.name) });
    const keyReason = phrase('summary.why.groupingColumn', { why: named });
    if (rowCount === 0) {
      return {
        column: byName.profile.column.name,
        confidence: byName.name!.score,
        reason: phrase('summary.why.groupNoRows', { named }),
        keyReason,
        groups,
        count,
      };
    }
    if (usable(byName)) {
      const confidence = round(Math.min(0.99, byName.name!.score + 0.05 + (orderIds ? 0.05 : 0)));
      const reason = phrase('summary.why.groupAdjacent', { named, runs: describe(byName) });
      return { column: byName.profile.column.name, confidence, reason, keyReason, groups, count };
    }
    const returning = byName.runs.returning;
    const problem = returning
      ? phrase('summary.warn.keyReturns', { value: shown(returning.value), row: returning.row })
      : phrase('summary.warn.keyBlank', { n: Math.round((1 - byName.profile.filled) * rowCount) });
    const reason = phrase('summary.why.groupBut', { named, problem });
    return {
      column: byName.profile.column.name,
      confidence: round(byName.name!.score * 0.7),
      reason,
      keyReason: reason,
      groups,
      count,
      warning: problem,
    };
  }

  const orderIds = candidates.filter((candidate) => usable(candidate) && candidate.profile.orderId >= 0.9);
  if (keyTarget === 'orderId' && orderIds.length === 1) {
    const only = orderIds[0]!;
    const { groups, count } = groupsBy(only.profile.column.values);
    const reason = phrase('summary.why.groupOrderIds', { runs: describe(only) });
    return {
      column: only.profile.column.name,
      confidence: 0.85,
      reason,
      keyReason: phrase('summary.why.groupingColumn', { why: phrase('summary.why.orderIdValues') }),
      groups,
      count,
    };
  }

  // By content alone: the finest grouping that still puts several rows together, and within whose
  // runs every line column changes (a line number repeated within a run means two requests).
  const lineColumns = profiles.filter((p) => (matchName(LINE_TARGET, p.column.name)?.score ?? 0) >= CONFIDENCE_THRESHOLD).map((p) => p.column);
  const linesChange = (candidate: (typeof candidates)[number]) => {
    const { groups } = groupsBy(candidate.profile.column.values);
    return lineColumns.every((line) => line === candidate.profile.column || changesWithin(line.values, groups));
  };
  const grouping = candidates.filter(
    (candidate) => usable(candidate) && candidate.runs.runs < rowCount && !lineColumns.includes(candidate.profile.column) && linesChange(candidate),
  );
  const most = Math.max(0, ...grouping.map((candidate) => candidate.runs.runs));
  const best = grouping.filter((candidate) => candidate.runs.runs === most);
  const lineNames = lineColumns.map((line) => shown(line.name)).join(', ');
  if (best.length === 0) {
    return ungrouped(lineColumns.length > 0 ? phrase('summary.why.noRepeatWhileLines', { lines: lineNames }) : phrase('summary.why.noRepeat'));
  }
  const { groups, count } = groupsBy(best[0]!.profile.column.values);
  // Only a line column checked above lets the reason say the lines change.
  const why = phrase(lineColumns.length > 0 ? 'summary.why.repeatsLinesChange' : 'summary.why.repeatsNoLines', { runs: describe(best[0]!) });
  if (best.length === 1)
    return { column: best[0]!.profile.column.name, confidence: 0.65, reason: why, keyReason: phrase('summary.why.groupingColumn', { why }), groups, count };
  const names = best.map((candidate) => shown(candidate.profile.column.name)).join(', ');
  const reason = phrase('summary.why.sameGrouping', { names, runs: describe(best[0]!) });
  return { column: best[0]!.profile.column.name, confidence: 0.5, reason, keyReason: reason, groups, count };
}
