/** The mapper's set of emitted keys, against a plain `Set` as the second implementation. */
import { describe, expect, it } from 'vitest';
import { CompactKeySet } from '../../src/mapping/compact-key-set.js';

describe('CompactKeySet', () => {
  it('answers as a Set does for keys that share prefixes, lengths and hashes, across many resizes', () => {
    const compact = new CompactKeySet();
    const plain = new Set<string>();
    const keys: string[] = [];
    for (let i = 0; i < 5_000; i++) keys.push(`ЗК-${i}`, `ЗК-${i}-`, `R${i % 97}`, `${i}`.repeat((i % 5) + 1), `€${String.fromCharCode(0xd83d, 0xde00)}${i}`);
    keys.push('', 'a', 'ab', 'ba');
    // Half of the keys go in; every key is asked before and after.
    keys.forEach((key, i) => {
      expect(compact.has(key)).toBe(plain.has(key));
      if (i % 2 === 0) {
        compact.add(key);
        plain.add(key);
      }
    });
    for (const key of keys) expect(compact.has(key), key).toBe(plain.has(key));
    expect(compact.size).toBe(plain.size);
  });

  it('adds a key once', () => {
    const set = new CompactKeySet();
    set.add('ЗК-1');
    set.add('ЗК-1');
    expect(set.size).toBe(1);
    expect(set.has('ЗК-1')).toBe(true);
    expect(set.has('ЗК-2')).toBe(false);
  });
});
