import { createHash } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedName } from '../../src/intake/inbox-names.js';
import { ensureInboxDirs } from '../../src/intake/intake-context.js';
import { takeFile } from '../../src/intake/take-file.js';
import { hashFile } from '../../src/intake/hash-file.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { MAX_READ_ATTEMPTS } from '../../src/intake/recover.js';
import { localDate } from '../../src/shared/local-time.js';
import { MAX_LISTED_PROBLEMS, MAX_PROBLEMS } from '../../src/mapping/collect-problems.js';
import { loadMappingSpec, mapFile } from '../../src/mapping/index.js';
import { getFile, type FileState } from '../../src/store/files.js';
import type { MappedItem } from '../../src/mapping/types.js';
import { recordMappedFile } from '../../src/intake/record-mapped-file.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';
import { SOURCE_SYSTEM, claimIntoProcessing, dropFile, onClaim, withIntake } from '../helpers/with-intake.js';

async function readReport(file: string): Promise<{ json: { file: string; problems: Record<string, unknown>[] }; csv: string }> {
  return {
    json: JSON.parse(await fs.readFile(`${file}.errors.json`, 'utf8')),
    csv: await fs.readFile(`${file}.errors.csv`, 'utf8'),
  };
}

describe('intake: recording', () => {
  it('records the valid requests of a partly bad file, archives it, and reports the bad row beside it', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await dropFile(f.inbox, 'mixed.csv', requestCsv([requestRow('R-1'), requestRow('R-2', '1', { ИНН: '7707083894' }), requestRow('R-3')]));
      await f.intake.start();

      const [file] = f.files();
      expect(file).toMatchObject({ state: 'archived', requestCount: 2, problemCount: 1 });
      expect(f.submissions().map((s) => [s.externalId, s.idempotencyKey, s.state, s.sourceRow])).toEqual([
        ['R-1', `${SOURCE_SYSTEM}:R-1`, 'pending', 2],
        ['R-3', `${SOURCE_SYSTEM}:R-3`, 'pending', 4],
      ]);
      const archived = path.join(f.inbox, 'archive', localDate(Date.now()), storedName(file!.id, 'mixed.csv'));
      expect(file!.currentPath).toBe(archived);
      await fs.access(archived);
      const { json, csv } = await readReport(archived);
      expect(json.file).toBe('mixed.csv');
      expect(json.problems).toEqual([expect.objectContaining({ row: 3, field: 'customer.inn', code: 'INN_INVALID', externalId: 'R-2' })]);
      const lines = csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('row (rows are numbered as lines of the file: the header is line 1);field;code;message;externalId');
      expect(lines[1]).toMatch(/^3;customer\.inn;INN_INVALID;.+;R-2$/);
    });
  });

  it('lists at most MAX_LISTED_PROBLEMS problems and counts the rest; past MAX_PROBLEMS it rejects the file unread', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const bad = (n: number, from: number) => Array.from({ length: n }, (_, i) => requestRow(`B-${from + i}`, '1', { ИНН: '7707083894' }));
      await dropFile(f.inbox, 'many.csv', requestCsv([requestRow('OK-1'), ...bad(MAX_LISTED_PROBLEMS + 10, 0)]));
      await f.intake.start();
      const [many] = f.files();
      expect(many).toMatchObject({ state: 'archived', requestCount: 1 });
      const { json } = await readReport(many!.currentPath!);
      expect(json.problems).toHaveLength(MAX_LISTED_PROBLEMS + 1);
      expect(json.problems.at(-1)).toMatchObject({ code: 'MAPPING_FAILED', row: MAX_LISTED_PROBLEMS + 3 });
      expect(String(json.problems.at(-1)!.message)).toContain('10 more problems');

      await dropFile(f.inbox, 'garbage.csv', requestCsv([requestRow('OK-2'), ...bad(MAX_PROBLEMS + 5, 100_000)]));
      await f.intake.scanNow();
      const garbage = f.files().find((row) => row.originalName === 'garbage.csv')!;
      expect(garbage).toMatchObject({ state: 'rejected', requestCount: 0 });
      const report = await readReport(garbage.currentPath!);
      expect(report.json.problems).toContainEqual(
        expect.objectContaining({ row: null, code: 'MAPPING_FAILED', message: expect.stringContaining(`more than ${MAX_PROBLEMS} problems`) }),
      );
      expect(report.json.problems.length).toBeLessThanOrEqual(MAX_LISTED_PROBLEMS + 2);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['OK-1']);
    });
  });

  it('with rejectWholeFile records nothing from a file with one bad request and rejects it', async () => {
    await withIntake({ ...NO_WAIT, rejectWholeFile: true }, async (f) => {
      await dropFile(f.inbox, 'mixed.csv', requestCsv([requestRow('R-1'), requestRow('R-2', '1', { 'Кол-во': 'много' })]));
      await f.intake.start();
      expect(f.submissions()).toEqual([]);
      const [file] = f.files();
      expect(file).toMatchObject({ state: 'rejected', requestCount: 0 });
      expect(path.dirname(file!.currentPath!)).toBe(path.join(f.inbox, 'rejected'));
      const { json } = await readReport(file!.currentPath!);
      expect(json.problems).toEqual([expect.objectContaining({ row: 3, field: expect.stringContaining('quantity') })]);
      expect(f.recordedCounts).toEqual([]);
    });
  });

  it('rejects a file whose columns do not match the mapping, with a file-level problem', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await dropFile(f.inbox, 'wrong.csv', 'a;b;c\n1;2;3\n');
      await f.intake.start();
      const [file] = f.files();
      expect(file!.state).toBe('rejected');
      const { json } = await readReport(file!.currentPath!);
      expect(json.problems[0]).toMatchObject({ row: null, code: 'COLUMN_MISSING' });
    });
  });

  it('corrects a request that ended rejected: same row, new payload, pending again, under a new key', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      await dropFile(f.inbox, 'v1.csv', requestCsv([requestRow('R-1', '1', { 'Кол-во': '10' })]));
      await f.intake.scanNow();
      const [before] = f.submissions();
      expect(before!.idempotencyKey).toBe(`${SOURCE_SYSTEM}:R-1`);
      // The platform refused it for good (what delivery records on a 422).
      f.db.prepare(`UPDATE submissions SET state = 'rejected', attempts = 1, last_status = 422, finished_at = 1 WHERE id = ?`).run(before!.id);

      await dropFile(f.inbox, 'v2.csv', requestCsv([requestRow('R-1', '1', { 'Кол-во': '12' })]));
      await f.intake.scanNow();
      const after = f.submissions();
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: before!.id, state: 'pending', attempts: 0, lastStatus: null, finishedAt: null });
      expect(after[0]!.payloadHash).not.toBe(before!.payloadHash);
      expect(after[0]!.idempotencyKey).toBe(`${SOURCE_SYSTEM}:R-1:${after[0]!.payloadHash.slice(0, 16)}`);
      expect(JSON.parse(after[0]!.payload).items[0].quantity).toBe(12);
      expect(f.files().map((r) => r.state)).toEqual(['archived', 'archived']);
    });
  });

  it('refuses the same externalId with a different payload while the first is not failed (EXTERNAL_ID_CONFLICT)', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      await dropFile(f.inbox, 'v1.csv', requestCsv([requestRow('R-1', '1', { 'Кол-во': '10' })]));
      await f.intake.scanNow();
      await dropFile(f.inbox, 'v2.csv', requestCsv([requestRow('R-1', '1', { 'Кол-во': '12' }), requestRow('R-2')]));
      await f.intake.scanNow();
      expect(f.submissions().map((s) => [s.externalId, s.idempotencyKey])).toEqual([
        ['R-1', `${SOURCE_SYSTEM}:R-1`],
        ['R-2', `${SOURCE_SYSTEM}:R-2`],
      ]);
      const v2 = f.files().find((r) => r.originalName === 'v2.csv')!;
      expect(v2.state).toBe('archived');
      const { json } = await readReport(v2.currentPath!);
      expect(json.problems).toEqual([expect.objectContaining({ row: 2, field: 'externalId', code: 'EXTERNAL_ID_CONFLICT', externalId: 'R-1' })]);
    });
  });

  it('notes a request already recorded with the same content and does not record it twice', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      await dropFile(f.inbox, 'v1.csv', requestCsv([requestRow('R-1')]));
      await f.intake.scanNow();
      // Different bytes (another request added), same R-1.
      await dropFile(f.inbox, 'v2.csv', requestCsv([requestRow('R-1'), requestRow('R-2')]));
      await f.intake.scanNow();
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-2']);
      const v2 = f.files().find((r) => r.originalName === 'v2.csv')!;
      expect(v2).toMatchObject({ state: 'archived', requestCount: 1, problemCount: 0 });
      expect(JSON.parse(v2.report!).notes).toEqual([expect.objectContaining({ row: 2, externalId: 'R-1' })]);
    });
  });

  it('retries a file whose move failed after recording at the next scan, without recording again', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await f.intake.start();
      // A plain file where today's archive folder should be: the move after the commit fails.
      const dayDir = path.join(f.inbox, 'archive', localDate(Date.now()));
      await fs.writeFile(dayDir, 'in the way');
      await dropFile(f.inbox, 'blocked.csv', requestCsv([requestRow('R-8')]));
      await f.intake.scanNow();
      const [row] = f.files();
      expect(row!.state).toBe('archived');
      expect(await f.list('processing')).toEqual([storedName(row!.id, 'blocked.csv')]);

      await fs.rm(dayDir);
      await f.intake.scanNow();
      expect(await f.list('processing')).toEqual([]);
      await fs.access(row!.currentPath!);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-8']);
    });
  });
});

describe('intake: crash recovery', () => {
  it('after a crash between recording and moving, finishes the move without recording again', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const content = requestCsv([requestRow('R-1'), requestRow('R-2')]);
      const row = await claimIntoProcessing(f, 'crash.csv', content);
      // Map and record exactly as the intake does, then "crash": close the store without moving.
      const spec = loadMappingSpec(f.flow.mapping);
      const archivePath = path.join(f.inbox, 'archive', localDate(Date.now()), storedName(row.id, 'crash.csv'));
      await recordMappedFile(f.db, {
        flow: 'requests',
        fileId: row.id,
        fileLabel: 'crash.csv',
        items: mapFile(row.currentPath!, spec, { now: new Date(), rejectPastDates: true }),
        sourceSystem: SOURCE_SYSTEM,
        rejectWholeFile: false,
        clock: Date.now,
        destinationFor: () => archivePath,
      });
      f.db.close();

      const again = f.reopen();
      const report = await again.intake.recover();
      expect(report).toMatchObject({ movesFinished: 1, reprocessed: 0, orphansTaken: 0, failures: 0 });
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-2']);
      expect(getFile(again.db, row.id)).toMatchObject({ state: 'archived', currentPath: archivePath });
      expect(await f.list('processing')).toEqual([]);
      expect(await fs.readFile(archivePath, 'utf8')).toBe(content);

      // A second recovery (another restart) changes nothing.
      expect(await again.intake.recover()).toMatchObject({ movesFinished: 0, reprocessed: 0 });
      expect(f.submissions()).toHaveLength(2);
    });
  });

  it('a file recorded already is not read again, its state looked up or as the caller knows it; a stale `processing` records nothing twice', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const row = await claimIntoProcessing(f, 'twice.csv', requestCsv([requestRow('R-1'), requestRow('R-2')]));
      const spec = loadMappingSpec(f.flow.mapping);
      const archivePath = path.join(f.inbox, 'archive', localDate(Date.now()), storedName(row.id, 'twice.csv'));
      const recordOf = (items: AsyncIterable<MappedItem>, knownState?: FileState) =>
        recordMappedFile(f.db, {
          flow: 'requests',
          fileId: row.id,
          ...(knownState ? { knownState } : {}),
          fileLabel: 'twice.csv',
          items,
          sourceSystem: SOURCE_SYSTEM,
          rejectWholeFile: false,
          clock: Date.now,
          destinationFor: () => archivePath,
        });
      const mapped = () => mapFile(row.currentPath!, spec, { now: new Date(), rejectPastDates: true });
      expect(await recordOf(mapped(), 'processing')).toMatchObject({ alreadyRecorded: false, recorded: 2 });

      let reads = 0;
      const counted = async function* () {
        reads += 1;
        yield* mapped();
      };
      expect(await recordOf(counted())).toMatchObject({ alreadyRecorded: true, state: 'archived' });
      expect(await recordOf(counted(), 'archived')).toMatchObject({ alreadyRecorded: true });
      expect(reads).toBe(0);
      // The caller's `processing` is stale: the file is read, and the recording's transaction finds it recorded.
      expect(await recordOf(counted(), 'processing')).toMatchObject({ alreadyRecorded: true, recorded: 0 });
      expect(reads).toBe(1);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-2']);
    });
  });

  it('after a crash between claiming and recording, maps and records the file on start', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const row = await claimIntoProcessing(f, 'half.csv', requestCsv([requestRow('R-9')]));
      f.db.close();
      const again = f.reopen();
      await again.intake.start();
      expect(getFile(again.db, row.id)!.state).toBe('archived');
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-9']);
      expect(await f.list('processing')).toEqual([]);
    });
  });

  it('after a crash between claiming and the rename into processing/, takes the file from the inbox as its own', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const content = requestCsv([requestRow('R-5')]);
      const row = await claimIntoProcessing(f, 'late.csv', content);
      // Undo the rename: the file is still in the inbox, its row says processing.
      await fs.rename(row.currentPath!, path.join(f.inbox, 'late.csv'));
      await f.intake.start();
      expect(f.files()).toEqual([expect.objectContaining({ id: row.id, state: 'archived' })]);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-5']);
      expect(await f.list('rejected')).toEqual([]);
    });
  });

  it('examines a file in processing/ that has no row as a new file', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await fs.mkdir(path.join(f.inbox, 'processing'), { recursive: true });
      await fs.writeFile(path.join(f.inbox, 'processing', '77-orphan.csv'), requestCsv([requestRow('R-7')]));
      const report = await f.intake.recover();
      expect(report.orphansTaken).toBe(1);
      expect(f.files()).toEqual([expect.objectContaining({ originalName: 'orphan.csv', state: 'archived' })]);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-7']);
      expect(await f.list('processing')).toEqual([]);
    });
  });
});

describe('intake: the group commit before the move', () => {
  it('keeps a recorded file in processing/ until its commit is durable: archived only after durable() resolves', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const file = await dropFile(f.inbox, 'held.csv', requestCsv([requestRow('R-1'), requestRow('R-2')]));
      const stat = await fs.stat(file);
      const waits: { stateThen: string | undefined; release: () => void }[] = [];
      const ctx = f.context({
        durable: () => new Promise<void>((release) => waits.push({ stateThen: f.files()[0]?.state, release })),
      });
      await ensureInboxDirs(ctx.dirs);
      const taking = takeFile(ctx, { path: file, name: 'held.csv', size: stat.size, mtimeMs: stat.mtimeMs });
      await waitUntil(() => waits.length === 1, 'the move to wait for durable()');
      // Recorded (the commit is made), and yet nothing has left processing/: a power cut now loses nothing.
      expect(waits[0]!.stateThen).toBe('archived');
      expect(await f.list('archive')).toEqual([]);
      expect(await f.list('processing')).toEqual([expect.stringMatching(/held\.csv$/)]);
      waits[0]!.release();
      expect(await taking).toBe('processed');
      expect(await f.list('processing')).toEqual([]);
      expect(await f.list('archive')).toEqual([expect.stringMatching(/held\.csv$/)]);
    });
  });
});

describe('intake: a file still being written when it is taken', () => {
  it('grown since the scan saw it, is hashed only as far as the scan saw and left for the next scan, unclaimed', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const file = await dropFile(f.inbox, 'growing.csv', requestCsv([requestRow('R-1')]));
      const seen = await fs.stat(file);
      await fs.appendFile(
        file,
        requestCsv([requestRow('R-2')])
          .split('\n')
          .slice(1)
          .join('\n'),
      );
      const ctx = f.context();
      await ensureInboxDirs(ctx.dirs);
      expect(await takeFile(ctx, { path: file, name: 'growing.csv', size: seen.size, mtimeMs: seen.mtimeMs })).toBe('changed');
      expect(f.files()).toEqual([]);
      expect(await fs.readdir(f.inbox)).toContain('growing.csv');
      const now = await fs.stat(file);
      expect(await takeFile(ctx, { path: file, name: 'growing.csv', size: now.size, mtimeMs: now.mtimeMs })).toBe('processed');
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1', 'R-2']);
    });
  });

  it('is mapped from the bytes its claim hashed: a same-size rewrite during the claim, its mtime put back, records nothing of it', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const file = await dropFile(f.inbox, 'rewritten.csv', requestCsv([requestRow('R-1')]));
      // A whole second, so that the rewrite can put the very same mtime back.
      const mtime = new Date(Math.floor(Date.now() / 1000) * 1000 - 5_000);
      await fs.utimes(file, mtime, mtime);
      const seen = await fs.stat(file);
      onClaim(f.db, () => {
        fsSync.writeFileSync(file, requestCsv([requestRow('R-9')]));
        fsSync.utimesSync(file, mtime, mtime);
      });
      const ctx = f.context();
      await ensureInboxDirs(ctx.dirs);
      expect(await takeFile(ctx, { path: file, name: 'rewritten.csv', size: seen.size, mtimeMs: seen.mtimeMs })).toBe('processed');
      const [row] = f.files();
      expect(row).toMatchObject({
        state: 'archived',
        sha256: createHash('sha256')
          .update(requestCsv([requestRow('R-1')]))
          .digest('hex'),
      });
      // What was recorded is what the SHA-256 names, not what sat on disk when it was parsed.
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1']);
    });
  });

  it('hashFile stops at the size it is given, and at the end of a shorter file', async () => {
    await withTempDir(async (dir) => {
      const file = path.join(dir, 'ten.csv');
      await fs.writeFile(file, '0123456789');
      const handle = await fs.open(file);
      try {
        const sha = (text: string) => createHash('sha256').update(text).digest('hex');
        // Read whole in one read: the bytes come with the hash, and a small file is mapped from them.
        expect(await hashFile(handle, { expectedSize: 4 })).toEqual({ sha256: sha('0123'), size: 4, bytes: Buffer.from('0123') });
        expect(await hashFile(handle, { expectedSize: 40 })).toEqual({ sha256: sha('0123456789'), size: 10 });
        expect(await hashFile(handle)).toEqual({ sha256: sha('0123456789'), size: 10 });
      } finally {
        await handle.close();
      }
    });
  });
});

describe('intake: a file the daemon died reading', () => {
  it('is read again after one crash, and rejected unread after two: it must not stop every start', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const once = await claimIntoProcessing(f, 'once.csv', requestCsv([requestRow('R-1')]));
      const twice = await claimIntoProcessing(f, 'twice.csv', requestCsv([requestRow('R-2')]));
      // Each was being read when the daemon died: once, and twice.
      f.db.prepare('UPDATE files SET read_attempts = ? WHERE id = ?').run(1, once.id);
      f.db.prepare('UPDATE files SET read_attempts = ? WHERE id = ?').run(MAX_READ_ATTEMPTS, twice.id);

      expect(await f.intake.recover()).toMatchObject({ reprocessed: 2, failures: 0 });
      expect(getFile(f.db, once.id)).toMatchObject({ state: 'archived', requestCount: 1, readAttempts: 2 });
      const rejected = getFile(f.db, twice.id)!;
      expect(rejected).toMatchObject({ state: 'rejected', requestCount: 0, readAttempts: MAX_READ_ATTEMPTS });
      expect(JSON.parse(rejected.report!).problems).toEqual([
        expect.objectContaining({
          code: 'FILE_UNREADABLE',
          message: expect.stringMatching(/twice\.csv: the daemon stopped .* while reading this file 2 times/),
        }),
      ]);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1']);
      expect(await f.list('processing')).toEqual([]);
    });
  });

  it('rejects unread a claimed file rewritten while the daemon was down, even at the same size: its SHA-256 no longer matches', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const content = requestCsv([requestRow('R-1')]);
      const row = await claimIntoProcessing(f, 'swapped.csv', content);
      await fs.writeFile(row.currentPath!, content.replace('R-1', 'R-9'));
      expect(await f.intake.recover()).toMatchObject({ reprocessed: 1, failures: 0 });
      const after = getFile(f.db, row.id)!;
      expect(after).toMatchObject({ state: 'rejected', requestCount: 0, readAttempts: 0 });
      expect(JSON.parse(after.report!).problems).toEqual([expect.objectContaining({ code: 'FILE_CHANGED' })]);
      expect(f.submissions()).toEqual([]);
    });
  });

  it('counts each read of a claimed file before it begins', async () => {
    await withIntake(NO_WAIT, async (f) => {
      await dropFile(f.inbox, 'plain.csv', requestCsv([requestRow('R-1')]));
      await f.intake.start();
      expect(f.files()).toEqual([expect.objectContaining({ state: 'archived', readAttempts: 1 })]);
    });
  });

  it('counts the read of a file taken from the inbox in its claim: one commit, and a crash right after the claim finds it counted', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const counted: number[] = [];
      f.db.function('test_claimed_reads', (n: unknown) => {
        counted.push(Number(n));
        return null;
      });
      f.db.exec(`CREATE TEMP TRIGGER test_claimed_reads AFTER INSERT ON files BEGIN SELECT test_claimed_reads(NEW.read_attempts); END`);
      const updates: number[] = [];
      f.db.function('test_read_updates', (n: unknown) => {
        updates.push(Number(n));
        return null;
      });
      f.db.exec(`CREATE TEMP TRIGGER test_read_updates AFTER UPDATE OF read_attempts ON files BEGIN SELECT test_read_updates(NEW.read_attempts); END`);
      await dropFile(f.inbox, 'plain.csv', requestCsv([requestRow('R-1')]));
      await f.intake.start();
      expect(counted).toEqual([1]);
      expect(updates).toEqual([]);
      expect(f.files()).toEqual([expect.objectContaining({ state: 'archived', readAttempts: 1 })]);
    });
  });
});
