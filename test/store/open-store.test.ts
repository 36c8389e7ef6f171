import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { schemaVersion } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { withTempDir } from '../helpers/temp-dir.js';

describe('openStore', () => {
  it('creates the schema in WAL mode and reopens without migrating twice', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'state', 'connector.sqlite');
      const db = openStore(file);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
      db.prepare("INSERT INTO files (flow, sha256, original_name, size_bytes, state, claimed_at) VALUES ('f', 'h', 'a.csv', 1, 'processing', 0)").run();
      db.close();
      const again = openStore(file);
      expect(again.prepare('SELECT count(*) AS n FROM files').get()).toEqual({ n: 1 });
      expect(() =>
        again.prepare("INSERT INTO files (flow, sha256, original_name, size_bytes, state, claimed_at) VALUES ('f', 'h', 'b.csv', 1, 'processing', 0)").run(),
      ).toThrow(/UNIQUE/);
      again.close();
    });
  });
});
