/**
 * A set of strings held in typed arrays, outside the objects the GC traces. The CSV mapper
 * remembers the key of every request it has emitted (one that comes back later is a problem), and
 * a million-row file has 100,000 keys or more. In a `Set<string>` each is a string and a table
 * entry on the heap, and, long-lived among the mapper's short-lived garbage, they made V8 keep a
 * heap several times their size; with this set a million-row file peaks close to what it does
 * remembering nothing (docs/performance.md, Intake). Here a key costs its UTF-16 code units, 4
 * bytes for where it starts and 8 to 16 bytes of table. Exact: a lookup compares the characters,
 * never only a hash.
 */
export class CompactKeySet {
  // Small to start with, doubled as keys come: a set per file, and most files hold a few keys.
  /** The keys' code units, one after the other; key i is `chars[starts[i] .. starts[i + 1])`. */
  private chars = new Uint16Array(256);
  private starts = new Int32Array(64);
  private count = 0;
  /** Open addressing: a slot holds a key's index + 1, or 0 when empty. Kept at most half full. */
  private slots = new Int32Array(128);

  get size(): number {
    return this.count;
  }

  has(key: string): boolean {
    return this.slots[this.find(key)] !== 0;
  }

  add(key: string): void {
    const slot = this.find(key);
    if (this.slots[slot] !== 0) return;
    const start = this.starts[this.count]!;
    const end = start + key.length;
    if (end > this.chars.length) this.chars = grow(this.chars, end);
    for (let i = 0; i < key.length; i++) this.chars[start + i] = key.charCodeAt(i);
    this.count += 1;
    if (this.count + 1 > this.starts.length) this.starts = grow(this.starts, this.count + 1);
    this.starts[this.count] = end;
    this.slots[slot] = this.count;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  /** The slot that holds `key`, or the empty slot where it would go. */
  private find(key: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0 || this.equals(entry - 1, key)) return slot;
    }
  }

  private equals(index: number, key: string): boolean {
    const start = this.starts[index]!;
    if (this.starts[index + 1]! - start !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (this.chars[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let index = 0; index < this.count; index++) {
      let slot = hashRange(this.chars, this.starts[index]!, this.starts[index + 1]!) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.slots = slots;
  }
}

function grow<T extends Uint16Array | Int32Array>(array: T, atLeast: number): T {
  let length = array.length * 2;
  while (length < atLeast) length *= 2;
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}

/** FNV-1a over UTF-16 code units. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hashRange(chars: Uint16Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ chars[i]!, 0x01000193);
  return h >>> 0;
}
