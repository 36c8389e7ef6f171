/**
 * The text given to saxes, cut into slices and measured. saxes reports positions in UTF-16 units;
 * the limits are in UTF-8 bytes. The meter turns a position into the bytes of everything written
 * up to it, measuring each slice at most once in all (positions only grow), so a check costs
 * nothing per event. A slice never ends on a CR or the first half of a surrogate pair, so saxes
 * never carries a character over from one write to the next and its positions are ours.
 */

/** Largest write to saxes, in UTF-16 units: the grain of the checks made between writes. */
export const SLICE_UNITS = 16 * 1024;

const isHeld = (code: number): boolean => code === 0x0d || (code >= 0xd800 && code <= 0xdbff);

export class SliceMeter {
  /** The slice being written, and where it starts among all units written. */
  slice = '';
  sliceStart = 0;
  /** Units written, and their UTF-8 bytes, once the current slice is through. */
  writtenUnits = 0;
  writtenBytes = 0;
  private cursorUnits = 0;
  private cursorBytes = 0;
  private held = '';

  /** `text` as slices to write, in order; a trailing CR or high surrogate waits for the next text (or `rest`). */
  *slices(text: string): Generator<string> {
    let all = this.held + text;
    this.held = '';
    if (all.length > 0 && isHeld(all.charCodeAt(all.length - 1))) {
      this.held = all.slice(-1);
      all = all.slice(0, -1);
    }
    for (let start = 0; start < all.length;) {
      let end = Math.min(all.length, start + SLICE_UNITS);
      if (end < all.length && isHeld(all.charCodeAt(end - 1))) end -= 1;
      yield all.slice(start, end);
      start = end;
    }
  }

  /** What is still held at the end of the text ('' when nothing). */
  rest(): string {
    const held = this.held;
    this.held = '';
    return held;
  }

  /** `slice` is about to be written. */
  begin(slice: string): void {
    this.slice = slice;
    this.sliceStart = this.writtenUnits;
    this.cursorUnits = this.writtenUnits;
    this.cursorBytes = this.writtenBytes;
  }

  /** The current slice has been written. */
  end(): void {
    this.writtenBytes = this.bytesAt(this.sliceStart + this.slice.length);
    this.writtenUnits = this.sliceStart + this.slice.length;
  }

  /** UTF-8 bytes of everything written up to `position`, a position in the current slice not before the last one asked. */
  bytesAt(position: number): number {
    if (position > this.cursorUnits) {
      this.cursorBytes += Buffer.byteLength(this.slice.slice(this.cursorUnits - this.sliceStart, position - this.sliceStart));
      this.cursorUnits = position;
    }
    return this.cursorBytes;
  }

  /** Up to `length` units of the current slice from `position` on ('' when it is not in the slice). */
  textAt(position: number, length: number): string {
    const from = position - this.sliceStart;
    return from < 0 || from >= this.slice.length ? '' : this.slice.slice(from, from + length);
  }
}
