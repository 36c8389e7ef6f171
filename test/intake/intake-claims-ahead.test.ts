/**
 * A scan claims the small files it hashed ahead together with the file whose turn it is, one
 * commit for several (`createLookahead` in `src/intake/scan-inbox.ts`). A claim is committed before
 * its file is renamed into processing/, so a claim made ahead is a file not yet moved: a scan stopped
 * before its turn drops it, and one left by a crash is adopted when the file is found again, its
 * read counted once.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inboxDirs, processingPathOf } from '../../src/intake/intake-context.js';
import { claimFiles } from '../../src/store/files.js';
import { hashFile } from '../../src/intake/hash-file.js';
import { openInputFile } from '../../src/shared/input-file.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, onClaim, withIntake } from '../helpers/with-intake.js';

const COUNT = 40;

/** Drop `COUNT` one-request files, taken in their order (mtimes one second apart, in the past). */
async function dropStorm(inbox: string): Promise<string[]> {
  const start = Date.now() - 600_000;
  const names: string[] = [];
  for (let i = 0; i < COUNT; i += 1) {
    const name = `f${String(i).padStart(3, '0')}.csv`;
    const file = await dropFile(inbox, name, requestCsv([requestRow(`R-${i}`)]));
    const at = new Date(start + i * 1000);
    await fs.utimes(file, at, at);
    names.push(name);
  }
  return names;
}

/**
 * The claims in the batches they were made in: the inserts of one transaction run in one
 * synchronous stretch of the loop, and those of separate claims are parted by the awaits between
 * them, so a microtask closes each batch.
 */
function watchClaimBatches(db: Parameters<typeof onClaim>[0], onInsert: (batch: string[]) => void = () => undefined): string[][] {
  const batches: string[][] = [];
  let open: string[] | null = null;
  onClaim(db, (name) => {
    if (open === null) {
      const batch: string[] = [];
      open = batch;
      batches.push(batch);
      queueMicrotask(() => {
        open = null;
      });
    }
    open.push(name);
    onInsert(open);
  });
  return batches;
}

describe('intake: small files claimed ahead', () => {
  it('a storm of small files is claimed several files to a commit, in order, each file taken once', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const names = await dropStorm(f.inbox);
      const batches = watchClaimBatches(f.db);
      await f.intake.start();
      expect(batches.flat()).toEqual(names);
      expect(Math.max(...batches.map((b) => b.length))).toBeGreaterThan(1);
      expect(batches.length).toBeLessThan(COUNT / 2);
      const files = f.files();
      expect(files.every((file) => file.state === 'archived' && file.requestCount === 1 && file.readAttempts === 1)).toBe(true);
      expect(f.submissions().map((s) => s.externalId)).toEqual(names.map((_, i) => `R-${i}`));
    });
  });

  it('a scan stopped while files it claimed ahead wait for their turn drops those claims; the next start takes each file once', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const names = await dropStorm(f.inbox);
      let stopping: Promise<void> | null = null;
      // Stopped in the middle of the first batch of several: the files of that batch after the one whose turn it is were not moved yet.
      watchClaimBatches(f.db, (batch) => {
        if (batch.length === 2 && stopping === null) stopping = f.intake.stop();
      });
      await f.intake.start().catch(() => undefined);
      expect(stopping).not.toBeNull();
      await stopping;
      const inbox = new Set(await fs.readdir(f.inbox));
      const taken = f.files();
      expect(taken.length).toBeLessThan(COUNT);
      // No claim is left for a file still in the inbox.
      expect(taken.filter((file) => inbox.has(file.originalName))).toEqual([]);
      expect(taken.every((file) => file.state === 'archived')).toBe(true);

      const again = f.reopen();
      await again.intake.start();
      await again.intake.stop();
      const files = f.files();
      expect(files.map((file) => file.originalName).sort()).toEqual(names);
      expect(files.every((file) => file.state === 'archived' && file.requestCount === 1)).toBe(true);
      expect(f.submissions().map((s) => s.externalId)).toEqual(names.map((_, i) => `R-${i}`));
    });
  });

  it('claims a crash left made ahead (files not yet moved) are adopted when the files are found again: each taken once, its read counted once', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const names = await dropStorm(f.inbox);
      // What a daemon killed right after claiming ahead leaves: rows, their files still in the inbox.
      const claimed = names.slice(0, 8);
      const newFiles = await Promise.all(
        claimed.map(async (name) => {
          const handle = await openInputFile(path.join(f.inbox, name));
          try {
            const { sha256, size } = await hashFile(handle);
            return { flow: f.flow.name, sha256, originalName: name, sizeBytes: size, now: Date.now() };
          } finally {
            await handle.close();
          }
        }),
      );
      const dirs = inboxDirs(f.inbox);
      const claims = claimFiles(f.db, newFiles, (id, name) => processingPathOf(dirs, id, name), { readStarts: true });
      expect(claims.every((claim) => claim.ok)).toBe(true);

      await f.intake.start();
      const files = f.files();
      expect(files).toHaveLength(COUNT);
      expect(
        files
          .filter((file) => claimed.includes(file.originalName))
          .map((file) => file.id)
          .sort((a, b) => a - b),
      ).toEqual(claims.map((claim) => claim.ok && claim.row.id));
      expect(files.every((file) => file.state === 'archived' && file.requestCount === 1 && file.readAttempts === 1)).toBe(true);
      expect(f.submissions().map((s) => s.externalId)).toEqual(names.map((_, i) => `R-${i}`));
    });
  });

  it('a file that leaves the inbox between its claim and its rename takes its claim with it; the same content dropped again is taken', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const csv = requestCsv([requestRow('R-1')]);
      await dropFile(f.inbox, 'a.csv', csv);
      onClaim(f.db, (name) => {
        if (name === 'a.csv') fsSync.rmSync(path.join(f.inbox, 'a.csv'));
      });
      await f.intake.start();
      expect(f.files()).toEqual([]);
      expect(f.logs().filter((line) => line.level === 'error')).toEqual([]);
      await dropFile(f.inbox, 'again.csv', csv);
      await f.intake.scanNow();
      expect(f.files()).toEqual([expect.objectContaining({ originalName: 'again.csv', state: 'archived', readAttempts: 1 })]);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1']);
    });
  });
});
