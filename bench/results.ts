/**
 * The shape of `bench/results.json` and the printed table.
 *
 * Each figure is one `BenchResult`. `target` is the human reading ("≥ 50000 rows/s and ≥ 0.4 of
 * ceiling"); `conditions` is the same target for a script: every condition must hold for `met` to
 * be true. A figure without a target (shown for context) has `target: null`, `conditions: []` and
 * `met: null`.
 */
import fs from 'node:fs';

export interface Condition {
  /** Which field the condition reads: the figure itself or its ratio to the ceiling. */
  of: 'value' | 'ratio';
  op: '>=' | '>' | '<=' | '<';
  threshold: number;
}

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The same kind of figure measured in the same run on a bare baseline (higher is better), or null. */
  ceiling: number | null;
  /** value / ceiling, or null. */
  ratio: number | null;
  target: string | null;
  conditions: Condition[];
  met: boolean | null;
  /** What the figure measured, in a few words. */
  notes?: string;
}

export interface FigureInput {
  name: string;
  value: number;
  unit: string;
  ceiling?: number;
  /**
   * The ratio when it is not simply value / ceiling: the median of per-round ratios of alternating
   * rounds (ceiling, daemon, ceiling, …), which one noisy round cannot decide.
   */
  ratio?: number;
  conditions?: Condition[];
  notes?: string;
}

function holds(c: Condition, value: number, ratio: number | null): boolean {
  const x = c.of === 'value' ? value : ratio;
  if (x === null || !Number.isFinite(x)) return false;
  switch (c.op) {
    case '>=':
      return x >= c.threshold;
    case '>':
      return x > c.threshold;
    case '<=':
      return x <= c.threshold;
    case '<':
      return x < c.threshold;
  }
}

function describeCondition(c: Condition, unit: string): string {
  return c.of === 'value' ? `${c.op} ${c.threshold} ${unit}` : `${c.op} ${c.threshold} of ceiling`;
}

/** Build a result: computes the ratio and whether every condition holds. */
export function figure(input: FigureInput): BenchResult {
  const ceiling = input.ceiling ?? null;
  const ratio = input.ratio ?? (ceiling !== null && ceiling > 0 ? input.value / ceiling : null);
  const conditions = input.conditions ?? [];
  return {
    name: input.name,
    value: input.value,
    unit: input.unit,
    ceiling,
    ratio,
    target: conditions.length > 0 ? conditions.map((c) => describeCondition(c, input.unit)).join(' and ') : null,
    conditions,
    met: conditions.length > 0 ? conditions.every((c) => holds(c, input.value, ratio)) : null,
    ...(input.notes ? { notes: input.notes } : {}),
  };
}

function formatNumber(x: number | null): string {
  if (x === null) return '';
  if (Math.abs(x) >= 100) return String(Math.round(x));
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

/** A Markdown table (it reads fine in a terminal and pastes into docs/performance.md). */
export function renderTable(results: readonly BenchResult[]): string {
  const rows = [
    ['benchmark', 'value', 'unit', 'ceiling', 'ratio', 'target', 'result'],
    ...results.map((r) => [
      r.name,
      formatNumber(r.value),
      r.unit,
      formatNumber(r.ceiling),
      formatNumber(r.ratio),
      r.target ?? '',
      r.met === null ? 'info' : r.met ? 'met' : 'MISSED',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}

export function writeResults(file: string, results: readonly BenchResult[]): void {
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
