import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHousekeeping } from '../../src/schedule/housekeeping.js';
import { summarise } from '../../src/schedule/summary.js';
import { openStore, storePath } from '../../src/store/open-store.js';
import { insertSubmission } from '../../src/store/submissions.js';
import { enqueueExport, markExportsWritten } from '../../src/store/exports.js';
import { recordEvents } from '../../src/store/events.js';
import { eventToStore, supersedes } from '../../src/webhook/status-change.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { writeConfig } from '../helpers/with-daemon.js';

const DAY = 86_400_000;

describe('housekeeping', () => {
  it('forgets old event ids, finished rows and written exports, and old archive folders; keeps everything still needed', async () => {
    await withTempDir(async (dir) => {
      const config = writeConfig(
        dir,
        `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: t-123456, sourceSystem: erp }
flows:
  - { name: requests, kind: requests, inbox: {dir}/inbox, mapping: {repo}/config/mappings/1c-requests.yaml, results: {dir}/results, intake: { archiveRetentionDays: 10 } }
webhook: { port: 0, secrets: [s-123456], retentionDays: 30 }
export: { folder: {dir}/import, mapping: {repo}/config/mappings/status-export.yaml }
retentionDays: 60
`,
      );
      const now = Date.UTC(2026, 10, 21, 12);
      const db = openStore(storePath(config.stateDir));
      const event = (id: string, receivedAt: number) =>
        recordEvents(
          db,
          [
            eventToStore(
              { eventId: id, eventType: 'order.status.changed', eventDate: '2026-01-01T00:00:00Z', orderId: 'ORD-2026-000001', status: 'shipped' },
              '{}',
              receivedAt,
            ),
          ],
          receivedAt,
          supersedes,
        );
      const submission = (key: string, state: string, finishedAt: number | null) => {
        const id = insertSubmission(db, {
          flow: 'requests',
          kind: 'request',
          dedupeKey: key,
          externalId: key,
          payload: '{}',
          payloadHash: key,
          idempotencyKey: key,
          now: now - 100 * DAY,
        });
        db.prepare('UPDATE submissions SET state = ?, finished_at = ? WHERE id = ?').run(state, finishedAt, id);
      };
      submission('OLD-ACCEPTED', 'accepted', now - 61 * DAY);
      submission('NEW-ACCEPTED', 'accepted', now - 59 * DAY);
      submission('OLD-PENDING', 'pending', null);
      submission('OLD-HELD', 'held', now - 100 * DAY);
      enqueueExport(db, { channel: 'status', sourceKey: 'old-written', record: {}, now: now - 90 * DAY });
      enqueueExport(db, { channel: 'status', sourceKey: 'old-pending', record: {}, now: now - 90 * DAY });
      markExportsWritten(db, [1], now - 61 * DAY);
      // Events enqueue their own (pending) status exports, which housekeeping must keep.
      event('EVT-000001', now - 31 * DAY);
      event('EVT-000002', now - 29 * DAY);
      for (const day of ['2026-11-01', '2026-11-15', 'not-a-day']) fs.mkdirSync(path.join(dir, 'inbox/archive', day), { recursive: true });

      const report = await runHousekeeping({ db, config, logger: silentLogger, now });
      expect(report).toMatchObject({ events: 1, submissions: 1, exports: 1 });
      expect(report.archiveFolders).toEqual([path.join(dir, 'inbox/archive/2026-11-01')]);
      expect(fs.readdirSync(path.join(dir, 'inbox/archive')).sort()).toEqual(['2026-11-15', 'not-a-day']);
      expect((db.prepare('SELECT event_id FROM events').all() as { event_id: string }[]).map((r) => r.event_id)).toEqual(['EVT-000002']);
      expect((db.prepare('SELECT external_id FROM submissions ORDER BY id').all() as { external_id: string }[]).map((r) => r.external_id)).toEqual([
        'NEW-ACCEPTED',
        'OLD-PENDING',
        'OLD-HELD',
      ]);
      expect((db.prepare('SELECT source_key FROM exports ORDER BY id').all() as { source_key: string }[]).map((r) => r.source_key)).toEqual([
        'old-pending',
        'EVT-000001',
        'EVT-000002',
      ]);

      expect(summarise(db, now)).toMatchObject({
        submissions: { requests: { accepted: 1, pending: 1, held: 1 } },
        pendingExports: { status: 3 },
        oldestPendingAgeSeconds: { requests: 100 * 86_400 },
      });
      db.close();
    });
  });
});
