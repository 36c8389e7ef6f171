/**
 * Which rows of a table are not data (`skipRows:`): blank rows, and totals rows, whose first filled
 * cell starts with a word such as `Итого` or `Всего` (a 1C report closes its table, and often each
 * group, with one). A word must stand alone: `Итого:` and `Всего 15` are totals, `Итоговая` is not.
 */
import type { SkipRows } from '../config/mapping-schema.js';
import { cellText } from './compile-field.js';
import type { Cell } from './readers/types.js';

type SkipRow = (cells: readonly Cell[]) => boolean;

/** Compiled once per rule, not once per file (a mapping reloaded is a new rule object). */
const compiled = new WeakMap<SkipRows, SkipRow>();

/** A predicate for rows to skip. */
export function compileSkipRows(rule: SkipRows): SkipRow {
  let skip = compiled.get(rule);
  if (skip === undefined) compiled.set(rule, (skip = compileRule(rule)));
  return skip;
}

function compileRule(rule: SkipRows): SkipRow {
  const escaped = rule.totals.map((word) => word.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const totals = escaped.length === 0 ? undefined : new RegExp(`^(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
  return (cells) => {
    for (const cell of cells) {
      const text = typeof cell === 'number' ? 'n' : cellText(cell).trim();
      if (text === '') continue;
      return typeof cell !== 'number' && totals !== undefined && totals.test(text);
    }
    return rule.blank;
  };
}
