import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createInboxScan } from '../../src/intake/inbox-scan.js';
import { ensureInboxDirs } from '../../src/intake/intake-context.js';
import { createStabilityTracker } from '../../src/intake/stability.js';
import { requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, withIntake } from '../helpers/with-intake.js';

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
});
