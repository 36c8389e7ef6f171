import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInboxScan } from '../../src/intake/inbox-scan.js';
import { ensureInboxDirs } from '../../src/intake/intake-context.js';
import { createStabilityTracker } from '../../src/intake/stability.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, onClaim, withIntake } from '../helpers/with-intake.js';

/** This process's descriptors open on `file` (Linux: /proc/self/fd). */
function descriptorsOn(file: string): number {
  return fsSync.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fsSync.readlinkSync(path.join('/proc/self/fd', fd)) === file;
    } catch {
      return false;
    }
  }).length;
}

describe('createInboxScan', () => {
  it('takes the complete files, and answers when a settling one may be ready', async () => {
    let now = 1_000_000;
    await withIntake({ stableForMs: 500, minAgeMs: 0, rescanIntervalMs: 60_000 }, async (f) => {
      const ctx = f.context({ clock: () => now });
      await ensureInboxDirs(ctx.dirs);
      const scan = createInboxScan(ctx, createStabilityTracker(f.flow.intake), ctx.logger);
      await dropFile(f.inbox, 'requests.csv', requestCsv([requestRow('S-1')]));
      const signal = new AbortController().signal;
      expect(await scan.run(signal)).toBe(now + 500);
      now += 500;
      expect(await scan.run(signal)).toBeNull();
      expect(f.files()).toEqual([expect.objectContaining({ originalName: 'requests.csv', state: 'archived' })]);
    });
  });

  it('never rejects: a scan that fails is logged and tried again at the next rescan', async () => {
    await withIntake({}, async (f) => {
      const ctx = f.context();
      const scan = createInboxScan(ctx, createStabilityTracker(f.flow.intake), ctx.logger);
      await fs.rm(f.inbox, { recursive: true, force: true });
      expect(await scan.run(new AbortController().signal)).toBeNull();
      expect(f.logs()).toContainEqual(expect.objectContaining({ msg: 'inbox scan failed; trying again at the next rescan' }));
    });
  });

  it('opens the next small file while one is taken, and closes it unclaimed when the scan stops in between', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const ctx = f.context();
      await ensureInboxDirs(ctx.dirs);
      const scan = createInboxScan(ctx, createStabilityTracker(f.flow.intake), ctx.logger);
      const first = await dropFile(f.inbox, 'a.csv', requestCsv([requestRow('A-1')]));
      const second = await dropFile(f.inbox, 'b.csv', requestCsv([requestRow('B-1')]));
      const older = new Date(Date.now() - 60_000);
      await fs.utimes(first, older, older);
      const stop = new AbortController();
      let openDuringClaim = -1;
      onClaim(f.db, (name) => {
        if (name !== 'a.csv') return;
        // The open runs on libuv's pool: its descriptor shows in /proc as soon as the call returns,
        // even while this thread is busy here, so a loaded machine is waited for, not failed.
        const deadline = Date.now() + 5_000;
        do openDuringClaim = descriptorsOn(second);
        while (openDuringClaim === 0 && Date.now() < deadline);
        stop.abort();
      });
      await scan.run(stop.signal);
      // b.csv was opened (and hashed) while a.csv was claimed; the scan stopped before its turn.
      expect(openDuringClaim).toBe(1);
      expect(descriptorsOn(second)).toBe(0);
      expect(f.files().map((row) => [row.originalName, row.state])).toEqual([['a.csv', 'archived']]);
      expect(await fs.readdir(f.inbox)).toContain('b.csv');

      await scan.run(new AbortController().signal);
      expect(f.submissions().map((row) => row.externalId)).toEqual(['A-1', 'B-1']);
    });
  });
});
