/**
 * A per-connection cache of prepared statements. better-sqlite3 frees a statement's native memory
 * only when V8 collects it, and V8 does not see that memory: preparing on every call made a
 * 10,000-request file cost ~400 MB of RSS and a tenth of the CPU of delivery and webhooks. Every
 * SQL text in `store/` is static, so each is prepared once per connection.
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
