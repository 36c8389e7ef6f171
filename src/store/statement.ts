/**
 * A per-connection cache of prepared statements. better-sqlite3 frees a statement's native memory
 * only when V8 collects it, and V8 does not see that memory: preparing on every call made a large
 * file's intake peak at about twice its RSS and cost delivery and webhooks CPU on every query
 * (docs/performance.md, Intake). Every SQL text in `store/` is static, so each is prepared once
 * per connection.
 */
import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export function statement(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}
