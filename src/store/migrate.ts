/**
 * Numbered migrations tracked with `PRAGMA user_version`. Migration N brings the schema from
 * version N-1 to N; each runs in its own transaction, so a crash leaves a whole version.
 * Never edit a migration that has shipped: add the next number.
 */
import type Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations/index.js';
import { ConnectorError } from '../errors.js';

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Database.Database): void {
  const current = schemaVersion(db);
  if (current > MIGRATIONS.length) {
    throw new ConnectorError(
      'STORE_FAILED',
      `The store's schema version ${current} is newer than this connector knows (${MIGRATIONS.length}); upgrade the connector.`,
    );
  }
  for (let version = current + 1; version <= MIGRATIONS.length; version += 1) {
    const sql = MIGRATIONS[version - 1]!;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    })();
  }
}
