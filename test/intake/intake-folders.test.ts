import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSlowly } from '../helpers/write-slowly.js';
import { waitUntil } from '../helpers/wait-until.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, withIntake } from '../helpers/with-intake.js';
import { manualClock } from '../helpers/clock.js';

describe('intake: when a file is complete', () => {
  it('does not take a file while a writer is still appending to it, and takes it once complete', async () => {
    // The intake's clock stands still while the writer writes, however slow the machine: the file
    // cannot look settled before the test moves the time past stableForMs.
    const clock = manualClock();
    await withIntake(
      { stableForMs: 400, minAgeMs: 100, rescanIntervalMs: 50 },
      async (f) => {
        await f.intake.start();
        const csv = requestCsv([requestRow('R-1'), requestRow('R-2'), requestRow('R-3')]);
        const chunks = csv.match(/[\s\S]{1,40}/g)!;
        expect(chunks.length).toBeGreaterThan(5);
        const file = path.join(f.inbox, 'slow.csv');
        let checked = 0;
        await writeSlowly(file, chunks, {
          intervalMs: 20,
          afterChunk: async () => {
            await f.intake.scanNow();
            // While the writer is busy the file must stay where it is, unclaimed.
            await fs.access(file);
            expect(f.files()).toEqual([]);
            checked += 1;
          },
        });
        expect(checked).toBe(chunks.length);
        await f.intake.scanNow();
        expect(f.files()).toEqual([]);
        clock.advance(60_000);
        await waitUntil(() => f.files().some((r) => r.state === 'archived'), 'the file to be archived');
        expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-2', 'R-3']);
        expect(await f.list('')).not.toContain('slow.csv');
        expect(f.recordedCounts).toEqual([3]);
      },
      { clock },
    );
  });

  it('in done-marker mode waits for the marker, then consumes it with the file', async () => {
    await withIntake({ ...NO_WAIT, doneMarker: 'done' }, async (f) => {
      await f.intake.start();
      await dropFile(f.inbox, 'r.csv', requestCsv([requestRow()]));
      await f.intake.scanNow();
      await f.intake.scanNow();
      expect(await f.list('')).toEqual(['r.csv']);
      expect(f.files()).toEqual([]);

      await fs.writeFile(path.join(f.inbox, 'r.csv.done'), '');
      await f.intake.scanNow();
      expect(f.files().map((r) => r.state)).toEqual(['archived']);
      expect(await f.list('')).toEqual([expect.stringMatching(/^archive\/\d{4}-\d{2}-\d{2}\/\d+-r\.csv$/)]);
    });
  });

  it('rejects a zero-byte file after emptyFileTimeoutMs, and not before', async () => {
    const clock = manualClock();
    await withIntake(
      { emptyFileTimeoutMs: 300, rescanIntervalMs: 60_000 },
      async (f) => {
        await f.intake.start();
        await dropFile(f.inbox, 'empty.csv', '');
        await f.intake.scanNow();
        expect(await f.list('rejected')).toEqual([]);
        clock.advance(60_000);
        // The intake schedules its own re-check for when the timeout runs out; no scan is asked for.
        await waitUntil(async () => (await f.list('rejected')).length === 3, 'the empty file to be rejected');
        const report = await f.rejectedReport();
        expect(report.problems).toEqual([expect.objectContaining({ row: null, code: 'FILE_EMPTY' })]);
        expect(f.files()).toEqual([]);
      },
      { clock },
    );
  });

  it('rejects a symlink without following it', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const target = path.join(f.dir, 'outside.csv');
      await fs.writeFile(target, requestCsv([requestRow()]));
      await fs.symlink(target, path.join(f.inbox, 'link.csv'));
      await f.intake.start();

      const rejected = await f.list('rejected');
      const link = rejected.find((n) => n.endsWith('link.csv'))!;
      expect(link).toBeDefined();
      expect((await fs.lstat(path.join(f.inbox, 'rejected', link))).isSymbolicLink()).toBe(true);
      const report = JSON.parse(await fs.readFile(path.join(f.inbox, 'rejected', `${link}.errors.json`), 'utf8'));
      expect(report.problems[0]).toMatchObject({ code: 'FILE_NOT_REGULAR' });
      expect(report.sha256).toBe('');
      // The target was neither moved nor recorded.
      expect(await fs.readFile(target, 'utf8')).toContain('R-1');
      expect(f.files()).toEqual([]);
      expect(f.submissions()).toEqual([]);
    });
  });

  it('rejects a file over maxFileBytes unread, and ignores names outside include', async () => {
    await withIntake({ stableForMs: 0, minAgeMs: 0, maxFileBytes: 100 }, async (f) => {
      await dropFile(f.inbox, 'big.csv', requestCsv([requestRow(), requestRow('R-1', '2')]));
      await dropFile(f.inbox, 'notes.txt', 'hello');
      await dropFile(f.inbox, 'export.csv.tmp', 'partial');
      await f.intake.start();
      const rejected = await f.list('rejected');
      expect(rejected.filter((n) => n.endsWith('big.csv'))).toHaveLength(1);
      const json = rejected.find((n) => n.endsWith('.errors.json'))!;
      expect(JSON.parse(await fs.readFile(path.join(f.inbox, 'rejected', json), 'utf8')).problems[0].code).toBe('FILE_TOO_LARGE');
      expect((await f.list('')).filter((n) => !n.startsWith('rejected/'))).toEqual(['export.csv.tmp', 'notes.txt']);
    });
  });

  it('takes the same content dropped twice once, and rejects the second copy as FILE_DUPLICATE naming the first', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const csv = requestCsv([requestRow('R-1'), requestRow('R-2')]);
      await f.intake.start();
      await dropFile(f.inbox, 'first.csv', csv);
      await f.intake.scanNow();
      await dropFile(f.inbox, 'second.csv', csv);
      await f.intake.scanNow();

      expect(f.files()).toHaveLength(1);
      expect(f.submissions()).toHaveLength(2);
      const rejected = await f.list('rejected');
      expect(rejected.filter((n) => n.endsWith('second.csv'))).toHaveLength(1);
      const json = await f.rejectedReport();
      expect(json.file).toBe('second.csv');
      expect(json.problems[0]!.code).toBe('FILE_DUPLICATE');
      expect(json.problems[0]!.message).toContain('first.csv');
      expect(json.problems[0]!.message).toMatch(/\d{4}-\d{2}-\d{2}T/);
    });
  });

  it.each([
    ['inotify', false],
    ['polling', true],
  ])('a watcher event (%s) brings the scan forward: no rescan is due for a minute', async (_mode, usePolling) => {
    await withIntake({ stableForMs: 0, minAgeMs: 0, emptyFileTimeoutMs: 60_000, rescanIntervalMs: 60_000, usePolling, pollIntervalMs: 50 }, async (f) => {
      await f.intake.start();
      await dropFile(f.inbox, 'hinted.csv', requestCsv([requestRow()]));
      await waitUntil(() => f.files().some((r) => r.state === 'archived'), 'the watcher to trigger a scan');
      expect(f.submissions()).toHaveLength(1);
    });
  });

  it('takes files oldest first, keeps equal names apart, and start/stop are idempotent', async () => {
    // The second a.csv is written while the intake watches, in this process: with no wait at all, two
    // scans between writeFile's open and its write saw it empty and rejected it (FILE_EMPTY).
    await withIntake({ stableForMs: 0, minAgeMs: 0, emptyFileTimeoutMs: 60_000, rescanIntervalMs: 60_000 }, async (f) => {
      await dropFile(f.inbox, 'b.csv', requestCsv([requestRow('B')]));
      await dropFile(f.inbox, 'a.csv', requestCsv([requestRow('A')]));
      const old = new Date(Date.now() - 60_000);
      await fs.utimes(path.join(f.inbox, 'b.csv'), old, old);
      await Promise.all([f.intake.start(), f.intake.start()]);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['B', 'A']);

      await dropFile(f.inbox, 'a.csv', requestCsv([requestRow('A2')]));
      await f.intake.scanNow();
      const archived = (await f.list('archive')).filter((n) => n.endsWith('a.csv'));
      expect(archived).toHaveLength(2);
      expect(new Set(archived).size).toBe(2);
      await Promise.all([f.intake.stop(), f.intake.stop()]);
      await f.intake.stop();
    });
  });
});
