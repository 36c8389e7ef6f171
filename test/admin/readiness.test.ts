/** `/readyz`'s verdict on a real store and real folders (served by the admin listener). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReadiness } from '../../src/admin/readiness.js';
import { openStore, storePath } from '../../src/store/open-store.js';
import { withTempDir } from '../helpers/temp-dir.js';

describe('checkReadiness', () => {
  it('is ready with a writable store and writable (or creatable) folders', async () => {
    await withTempDir((dir) => {
      const db = openStore(storePath(dir));
      expect(checkReadiness(db, [dir, path.join(dir, 'not-yet', 'import')])).toEqual({ ready: true, reasons: [] });
      db.close();
    });
  });

  it('names the store when its schema does not answer, and again once it does', async () => {
    await withTempDir((dir) => {
      const db = openStore(storePath(dir));
      db.exec('ALTER TABLE events RENAME TO events_away');
      const report = checkReadiness(db, []);
      expect(report.ready).toBe(false);
      expect(report.reasons.join()).toMatch(/^store: .*events/);
      db.exec('ALTER TABLE events_away RENAME TO events');
      expect(checkReadiness(db, []).ready).toBe(true);
      db.close();
    });
  });

  it('says the store is closed', async () => {
    await withTempDir((dir) => {
      const db = openStore(storePath(dir));
      db.close();
      expect(checkReadiness(db, [])).toEqual({ ready: false, reasons: ['store: closed'] });
    });
  });

  it('reports an export folder that cannot be created', async () => {
    await withTempDir((dir) => {
      const db = openStore(storePath(dir));
      const blocker = path.join(dir, 'a-file');
      fs.writeFileSync(blocker, 'x');
      const folder = path.join(blocker, 'import');
      expect(checkReadiness(db, [folder])).toEqual({ ready: false, reasons: [`folder ${folder}: ENOTDIR`] });
      db.close();
    });
  });
});
