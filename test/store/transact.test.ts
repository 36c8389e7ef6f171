/** `transact` (`store/statement.ts`): one transaction function per connection, nesting as savepoints. */
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { transact, transactImmediate } from '../../src/store/statement.js';

describe('transact', () => {
  it('commits what its function wrote, rolls back what a throwing one wrote, and a nested failure alone', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (n INTEGER)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const count = () => (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    expect(transact(db, () => insert.run(1).changes)).toBe(1);
    expect(() =>
      transact(db, () => {
        insert.run(2);
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(count()).toBe(1);
    // Nested: a SAVEPOINT, so the inner failure is undone and the outer commit keeps the rest.
    transact(db, () => {
      insert.run(3);
      expect(() =>
        transact(db, () => {
          insert.run(4);
          throw new Error('inner');
        }),
      ).toThrow('inner');
      insert.run(5);
    });
    expect(db.prepare('SELECT n FROM t ORDER BY n').pluck().all()).toEqual([1, 3, 5]);
    expect(db.inTransaction).toBe(false);
    db.close();
  });

  it('builds its transaction function once per connection, however many transactions run', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (n INTEGER)');
    const built = vi.spyOn(db, 'transaction');
    for (let n = 0; n < 50; n += 1) transact(db, () => db.prepare('INSERT INTO t VALUES (?)').run(n));
    transactImmediate(db, () => db.prepare('INSERT INTO t VALUES (?)').run(50));
    expect(built).toHaveBeenCalledTimes(1);
    expect((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(51);
    db.close();
  });

  it('transactImmediate takes the write lock at BEGIN, before any write', () => {
    const seen: string[] = [];
    const traced = new Database(':memory:', { verbose: (sql) => seen.push(String(sql)) });
    transactImmediate(traced, () => traced.prepare('SELECT 1').get());
    expect(seen).toContain('BEGIN IMMEDIATE');
    traced.close();
  });
});
