/**
 * A scan's recorded files leave `processing/` in groups (`src/intake/file-moves.ts`): one wait for
 * the group commit covers every file recorded before it, no file moves before its commit is
 * durable, and the scan ends only once every file it took has moved.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureInboxDirs } from '../../src/intake/intake-context.js';
import { GROUP_FILES } from '../../src/intake/recording-group.js';
import { scanInbox } from '../../src/intake/scan-inbox.js';
import { createStabilityTracker } from '../../src/intake/stability.js';
import { requestCsv, requestRow } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';
import { withIntake } from '../helpers/with-intake.js';

const READY_AT_ONCE = { stableForMs: 0, minAgeMs: 0, emptyFileTimeoutMs: 60_000 };

describe('a scan moves its recorded files in groups', () => {
  it('one durable() wait covers the files recorded meanwhile; none moves before its wait ends, and the scan ends after the last move', async () => {
    await withIntake({ stableForMs: 0, minAgeMs: 0, rescanIntervalMs: 60_000 }, async (f) => {
      await f.intake.stop();
      // A first group of recordings (`GROUP_FILES`, one commit), and four more recorded while it waits for its move.
      const names = Array.from({ length: GROUP_FILES + 4 }, (_, i) => `f${String(i).padStart(2, '0')}.csv`);
      for (const [i, name] of names.entries()) await fs.writeFile(path.join(f.inbox, name), requestCsv([requestRow(`R-${i}`)]));
      // Older than now, so the files are taken in name order and at once.
      const past = new Date(Date.now() - 60_000);
      for (const name of names) await fs.utimes(path.join(f.inbox, name), past, past);
      const waits: { archivedThen: number; release: () => void }[] = [];
      const archived = () => f.files().filter((file) => file.state === 'archived').length;
      const ctx = f.context({ durable: () => new Promise<void>((release) => waits.push({ archivedThen: archived(), release })) });
      await ensureInboxDirs(ctx.dirs);
      const tracker = createStabilityTracker(READY_AT_ONCE);

      let ended = false;
      const scanning = scanInbox(ctx, tracker, { signal: new AbortController().signal }).then((result) => {
        ended = true;
        return result;
      });
      // The first group waits for its commit; the scan goes on recording the others meanwhile.
      await waitUntil(() => waits.length === 1 && archived() === names.length, 'every file recorded while the first group waits');
      expect(waits[0]!.archivedThen).toBe(GROUP_FILES);
      expect(await f.list('archive')).toEqual([]);
      waits[0]!.release();
      // The rest (the four, and any of the first group that came after its move began): one wait for
      // all of them, and none moved before it ends.
      await waitUntil(() => waits.length === 2, 'the second group to wait');
      const movedFirst = (await f.list('archive')).length;
      expect(movedFirst).toBeGreaterThan(0);
      expect(movedFirst).toBeLessThanOrEqual(GROUP_FILES);
      expect((await f.list('processing')).length).toBe(names.length - movedFirst);
      expect(ended).toBe(false);
      waits[1]!.release();
      expect(await scanning).toMatchObject({ taken: names.length, failed: 0 });
      expect(waits).toHaveLength(2);
      expect(await f.list('processing')).toEqual([]);
      expect((await f.list('archive')).length).toBe(names.length);
    });
  });

  it('a group whose commit cannot be made durable stays in processing/, counted failed, for recovery to finish', async () => {
    await withIntake({ stableForMs: 0, minAgeMs: 0, rescanIntervalMs: 60_000 }, async (f) => {
      await f.intake.stop();
      await fs.writeFile(path.join(f.inbox, 'a.csv'), requestCsv([requestRow('R-1')]));
      const past = new Date(Date.now() - 60_000);
      await fs.utimes(path.join(f.inbox, 'a.csv'), past, past);
      const ctx = f.context({ durable: () => Promise.reject(new Error('the store thread is gone')) });
      await ensureInboxDirs(ctx.dirs);
      const result = await scanInbox(ctx, createStabilityTracker(READY_AT_ONCE), { signal: new AbortController().signal });
      expect(result).toMatchObject({ taken: 1, failed: 1 });
      expect((await f.list('processing')).length).toBe(1);
      expect(f.logs().some((line) => line.msg === 'recorded files could not be moved; recovery moves them at the next scan')).toBe(true);
      // Recovery (the next scan's first step after a failure) finishes the move from the row.
      expect(await f.intake.recover()).toMatchObject({ failures: 0 });
      expect(await f.list('processing')).toEqual([]);
      expect((await f.list('archive')).length).toBe(1);
    });
  });
});
