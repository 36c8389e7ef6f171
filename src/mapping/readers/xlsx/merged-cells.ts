/**
 * Merged cells: every cell of a merged range reads as the range's top-left value, so a document
 * number merged down over its lines is on every line, and a group title merged across a two-row
 * header stands over each of its sub-columns.
 *
 * The ranges are held as four numbers each in one Uint32Array (16 bytes a range), sorted by top
 * row. Rows stream past in order; a range becomes active at its top row, where its top-left value
 * is taken, and is dropped after its bottom row, so each row costs only the ranges that cover it.
 */
import { ConnectorError } from '../../../errors.js';
import type { Cell } from '../types.js';
import { MAX_COLUMNS, type CellRange } from './cell-ref.js';

/** A generous cap: a 1C report merging ten columns down over each of 100,000 documents. */
export const MAX_MERGES = 1_000_000;

export class MergedCells {
  private ranges = new Uint32Array(4 * 64);
  private count = 0;
  private sorted = true;
  /** Indexes of the ranges in top-row order, set by `start()`. */
  private order: Uint32Array = new Uint32Array(0);
  private next = 0;
  private readonly active: number[] = [];
  private readonly values: Cell[] = [];
  private activeWidth = 0;

  get size(): number {
    return this.count;
  }

  add(range: CellRange): void {
    if (range.top === range.bottom && range.left === range.right) return;
    if (this.count >= MAX_MERGES) {
      throw new ConnectorError(
        'WORKBOOK_LIMIT_EXCEEDED',
        `merges more than ${MAX_MERGES} ranges of cells in one sheet: refused as a damaged or hostile workbook`,
        { text: { key: 'workbookLimit', params: { said: `mergeCells > ${MAX_MERGES}` } } },
      );
    }
    if (4 * (this.count + 1) > this.ranges.length) {
      const grown = new Uint32Array(this.ranges.length * 2);
      grown.set(this.ranges);
      this.ranges = grown;
    }
    const at = 4 * this.count;
    if (this.count > 0 && range.top < this.ranges[at - 4]!) this.sorted = false;
    this.ranges.set([range.top, range.left, range.bottom, range.right], at);
    this.count++;
  }

  /** Call once every range is added, before the first row. */
  start(): void {
    this.order = new Uint32Array(this.count);
    for (let index = 0; index < this.count; index++) this.order[index] = index;
    // Writers list merges in sheet order; sort only when one did not.
    if (!this.sorted) this.order.sort((a, b) => this.ranges[4 * a]! - this.ranges[4 * b]! || this.ranges[4 * a + 1]! - this.ranges[4 * b + 1]!);
  }

  /**
   * Fill `cells` (row `row`, rows given in increasing order) with the top-left values of the ranges
   * covering it; a cell the range covers is overwritten, as Excel shows only the top-left value.
   * Only columns below `width` are filled (the rest are not read).
   */
  apply(row: number, cells: Cell[], width = MAX_COLUMNS): void {
    if (this.count === 0) return;
    this.retire(row);
    const ranges = this.ranges;
    while (this.next < this.count && ranges[4 * this.order[this.next]!]! <= row) {
      const index = this.order[this.next++]!;
      const at = 4 * index;
      if (ranges[at + 2]! < row) continue;
      // A range whose top row is not in the sheet (or was passed) has no value to spread.
      this.active.push(index);
      this.values.push(ranges[at]! === row ? (cells[ranges[at + 1]!] ?? '') : '');
      this.activeWidth += ranges[at + 3]! - ranges[at + 1]! + 1;
      if (this.activeWidth > MAX_COLUMNS) {
        const said = `its merged cells overlap in row ${row}`;
        throw new ConnectorError('FILE_UNREADABLE', `is a damaged workbook: ${said}`, { text: { key: 'workbookDamaged', params: { said } } });
      }
    }
    for (let k = 0; k < this.active.length; k++) {
      const at = 4 * this.active[k]!;
      const value = this.values[k]!;
      const top = ranges[at]!;
      const left = ranges[at + 1]!;
      const right = Math.min(ranges[at + 3]!, width - 1);
      if (left > right) continue;
      while (cells.length < left) cells.push('');
      for (let column = left; column <= right; column++) {
        if (row === top && column === left) {
          if (cells.length === column) cells.push('');
          continue;
        }
        if (column < cells.length) cells[column] = value;
        else cells.push(value);
      }
    }
  }

  /** Drop the ranges that end above `row`. */
  private retire(row: number): void {
    let kept = 0;
    for (let k = 0; k < this.active.length; k++) {
      const at = 4 * this.active[k]!;
      if (this.ranges[at + 2]! >= row) {
        this.active[kept] = this.active[k]!;
        this.values[kept] = this.values[k]!;
        kept++;
      } else this.activeWidth -= this.ranges[at + 3]! - this.ranges[at + 1]! + 1;
    }
    this.active.length = kept;
    this.values.length = kept;
  }
}
