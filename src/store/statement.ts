/**
 * A per-connection cache of prepared statements. better-sqlite3 frees a statement's native memory
 * only when V8 collects it, and V8 does not see that memory: preparing on every call made a large
 * file's intake peak at about twice its RSS and cost delivery and webhooks CPU on every query
 * (docs/performance.md, Intake). Every SQL text in `store/` is static, so each is prepared once
 * per connection.
 *
 * Every statement of `store/` passes here on its way to run, so this is also where a connection's
 * writes are held back while its disk is full (`space-guard.ts`): a statement that changes the
 * database throws `STORE_DISK_FULL` instead of adding to a WAL that cannot be checkpointed.
 */
import type Database from 'better-sqlite3';
import type { SpaceGuard } from './space-guard.js';

/** One transaction function that runs whatever it is given (`transact`). */
type Runner = Database.Transaction<(run: () => unknown) => unknown>;

interface Connection {
  statements: Map<string, Database.Statement>;
  guard: SpaceGuard | undefined;
  runner: Runner | undefined;
}

const connections = new WeakMap<Database.Database, Connection>();

function connectionOf(db: Database.Database): Connection {
  let connection = connections.get(db);
  if (!connection) {
    connection = { statements: new Map(), guard: undefined, runner: undefined };
    connections.set(db, connection);
  }
  return connection;
}

export function statement(db: Database.Database, sql: string): Database.Statement {
  const connection = connectionOf(db);
  let prepared = connection.statements.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    connection.statements.set(sql, prepared);
  }
  // `readonly` is SQLite's own verdict (sqlite3_stmt_readonly), kept on the statement.
  if (connection.guard && !prepared.readonly) connection.guard.assertWritable();
  return prepared;
}

/**
 * Run `fn` in a transaction of `db` (BEGIN … COMMIT, or a SAVEPOINT when one is open), as
 * `db.transaction(fn)()` does. better-sqlite3 builds each transaction function with four wrappers
 * and their properties, about 5 KB made and dropped on every call: on the webhook path that was
 * an eighth of all it allocated, one more young-generation collection (and its pause) every few
 * hundred events. One function per connection runs whatever it is given.
 */
export function transact<T>(db: Database.Database, fn: () => T): T {
  return runnerOf(db)(fn) as T;
}

/** `transact`, opened with BEGIN IMMEDIATE (the write lock at once, not at the first write). */
export function transactImmediate<T>(db: Database.Database, fn: () => T): T {
  return runnerOf(db).immediate(fn) as T;
}

function runnerOf(db: Database.Database): Runner {
  const connection = connectionOf(db);
  connection.runner ??= db.transaction((run: () => unknown) => run());
  return connection.runner;
}

/** Hold the writes of `db`'s statements back while `guard` says its disk is full (the daemon's store). */
export function guardWrites(db: Database.Database, guard: SpaceGuard): void {
  connectionOf(db).guard = guard;
}

/** Whether `db`'s writes are held back for a full disk (for `/readyz`). */
export function writesHeld(db: Database.Database): boolean {
  return connections.get(db)?.guard?.holding ?? false;
}
