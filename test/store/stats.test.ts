/**
 * The summaries of `store/stats.ts` on a real store file: what the console, `/metrics` and the
 * daily summary say is waiting to be exported, per channel, and that it is read from an index.
 */
import { describe, expect, it } from 'vitest';
import { enqueueExport, markExportsWritten, setExportsAside } from '../../src/store/exports.js';
import { PENDING_EXPORTS_SQL, pendingExportsByChannel } from '../../src/store/stats.js';
import { withStore } from '../helpers/store.js';
import { withTempDir } from '../helpers/temp-dir.js';

describe('pendingExportsByChannel', () => {
  it('counts each channel’s pending rows and gives the time its oldest waiting one was enqueued; written and set-aside rows wait for nothing', async () => {
    await withTempDir((dir) =>
      withStore(dir, (db) => {
        expect(pendingExportsByChannel(db)).toEqual([]);
        const enqueue = (channel: string, key: string, now: number) => enqueueExport(db, { channel, sourceKey: key, record: { key }, now });
        enqueue('statuses', 'S-1', 1_000);
        enqueue('acks', 'A-1', 2_000);
        enqueue('acks', 'A-2', 3_000);
        enqueue('statuses', 'S-2', 4_000);
        enqueue('acks', 'A-3', 5_000);
        expect(pendingExportsByChannel(db)).toEqual([
          { channel: 'acks', count: 3, oldestAt: 2_000 },
          { channel: 'statuses', count: 2, oldestAt: 1_000 },
        ]);
        const idOf = (key: string) => db.prepare('SELECT id FROM exports WHERE source_key = ?').pluck().get(key) as number;
        markExportsWritten(db, [idOf('A-1')], 6_000);
        setExportsAside(db, [idOf('S-1')], 'the import folder refused it');
        expect(pendingExportsByChannel(db)).toEqual([
          { channel: 'acks', count: 2, oldestAt: 3_000 },
          { channel: 'statuses', count: 1, oldestAt: 4_000 },
        ]);
        markExportsWritten(db, [idOf('S-2')], 7_000);
        expect(pendingExportsByChannel(db)).toEqual([{ channel: 'acks', count: 2, oldestAt: 3_000 }]);
      }),
    );
  });

  it('reads the pending rows from exports_pending alone, and one row per channel', async () => {
    await withTempDir((dir) =>
      withStore(dir, (db) => {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${PENDING_EXPORTS_SQL}`).all() as { detail: string }[]).map((row) => row.detail);
        expect(plan).toContain('SEARCH exports USING COVERING INDEX exports_pending (state=?)');
        expect(plan).toContain('SEARCH e USING INTEGER PRIMARY KEY (rowid=?)');
        expect(plan.filter((step) => step.startsWith('SCAN') && !step.startsWith('SCAN p'))).toEqual([]);
      }),
    );
  });
});
