/**
 * A file larger than one chunk is recorded as it is read: chunks are staged (invisible to delivery
 * and to counts) and the file's outcome made real once, at the end. The plan's rules hold across
 * chunks, and whatever interrupts a recording (a failed write, a crash) leaves nothing of the file
 * visible; the next run records it once. A file of one chunk is recorded in one transaction
 * instead, nothing staged, by the same rules.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedName } from '../../src/intake/inbox-names.js';
import { processClaimedFile } from '../../src/intake/process-file.js';
import { RECORD_CHUNK_SUBMISSIONS } from '../../src/intake/record-mapped-file.js';
import { prepareSubmission } from '../../src/intake/submission-keys.js';
import type { MappedItem } from '../../src/mapping/types.js';
import type { CreateRequest } from '../../src/platform/contract.js';
import { localDate } from '../../src/shared/local-time.js';
import { getFile, readFileReport, type FileRecord } from '../../src/store/files.js';
import type { Db } from '../../src/store/open-store.js';
import { countOutstanding, countSubmissionsByState, requeueSubmissions } from '../../src/store/outbox.js';
import { finishRecording, stageChunk } from '../../src/store/record-file.js';
import { addRequestRow } from '../helpers/store.js';
import { NO_WAIT, requestCsv, requestRow, validRequest } from '../helpers/fixtures.js';
import { SOURCE_SYSTEM, claimIntoProcessing, dropFile, withIntake, type IntakeFixture } from '../helpers/with-intake.js';

/** More requests than one chunk holds, so a file of them is recorded in two chunks at least. */
const N = RECORD_CHUNK_SUBMISSIONS + 100;
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `R-${String(from + i).padStart(4, '0')}`);

function states(db: Db): Record<string, number> {
  const rows = db.prepare('SELECT state, COUNT(*) AS n FROM submissions GROUP BY state').all() as { state: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/** An outbox row of `externalId` that ended in `state` (finished): returns its id. */
function finishedRow(db: Db, externalId: string, state: 'dead' | 'accepted'): number {
  const id = addRequestRow(db, 'requests', validRequest(externalId), externalId);
  db.prepare(`UPDATE submissions SET state = ?, finished_at = 1 WHERE id = ?`).run(state, id);
  return id;
}

/** Process a claimed file as the intake does, with `items` standing in for the mapper's output. */
async function processWith(f: IntakeFixture, row: FileRecord, items: () => AsyncIterable<MappedItem>) {
  const handle = await fs.open(row.currentPath!);
  try {
    return await processClaimedFile(f.context({ mapItems: items }), row, handle);
  } finally {
    await handle.close();
  }
}

const request = (externalId: string, firstRow: number, payload: CreateRequest = validRequest(externalId)): MappedItem => ({
  kind: 'submission',
  submission: { kind: 'request', externalId, payload, firstRow },
});

describe('intake: recording a file in chunks', () => {
  it('stages chunks out of sight while reading, then records duplicates across chunks, a conflict and a correction as one file', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const corrected = finishedRow(f.db, 'C-1', 'dead');
      finishedRow(f.db, 'D-1', 'accepted');
      const row = await claimIntoProcessing(f, 'big.csv', 'not read: the items come from the test');

      const whileReading: { states: Record<string, number>; counted: unknown; unsettled: number }[] = [];
      async function* items(): AsyncGenerator<MappedItem> {
        let n = 0;
        for (const id of ids(1, N)) {
          yield request(id, ++n);
          if (n === N - 1) whileReading.push({ states: states(f.db), counted: countSubmissionsByState(f.db), unsettled: countOutstanding(f.db, 'requests') });
        }
        yield request('C-1', ++n, validRequest('C-1', { comment: 'исправлено' })); // corrects the dead row
        yield request('R-0001', ++n); // again, same payload as in the first chunk: a duplicate
        yield request('R-0002', ++n, validRequest('R-0002', { comment: 'другое' })); // again, changed: a conflict
        yield request('D-1', ++n); // already accepted with the same payload: a duplicate
      }
      const result = await processWith(f, row, items);

      // While the file was read, whole chunks were in the store, and neither counted nor due.
      expect(whileReading).toHaveLength(1);
      expect(whileReading[0]!.states.staged).toBeGreaterThan(0);
      expect(whileReading[0]!.states.pending).toBeUndefined();
      expect(whileReading[0]!.counted).toEqual([
        { flow: 'requests', state: 'accepted', count: 1 },
        { flow: 'requests', state: 'dead', count: 1 },
      ]);
      expect(whileReading[0]!.unsettled).toBe(0);

      expect(result).toMatchObject({ state: 'archived', recorded: N, corrected: 1, duplicates: 2 });
      expect(states(f.db)).toEqual({ pending: N + 1, accepted: 1 });
      const file = getFile(f.db, row.id)!;
      expect(file).toMatchObject({ state: 'archived', requestCount: N + 1, problemCount: 1 });
      const report = readFileReport(file)!;
      expect(report.problems).toEqual([
        expect.objectContaining({ row: N + 3, code: 'EXTERNAL_ID_CONFLICT', message: expect.stringContaining('(row 2 of this file)') }),
      ]);
      expect(report.notes.map((n) => [n.row, n.externalId])).toEqual([
        [N + 2, 'R-0001'],
        [N + 4, 'D-1'],
      ]);
      const c1 = f.submissions().find((s) => s.externalId === 'C-1')!;
      expect(c1).toMatchObject({ id: corrected, state: 'pending', fileId: row.id, sourceRow: N + 1 });
      expect(JSON.parse(c1.payload).comment).toBe('исправлено');
      expect(c1.idempotencyKey).toBe(
        prepareSubmission({ kind: 'request', externalId: 'C-1', payload: JSON.parse(c1.payload), firstRow: 1 }, SOURCE_SYSTEM).correctionKey,
      );
      expect(f.db.prepare('SELECT COUNT(*) AS n FROM staged_corrections').get()).toEqual({ n: 0 });
      await fs.access(path.join(f.inbox, 'archive', localDate(Date.now()), storedName(row.id, 'big.csv')));
    });
  });

  it('a correction whose row is requeued while the file is read is not applied: it becomes a conflict', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const dead = finishedRow(f.db, 'C-1', 'dead');
      const row = await claimIntoProcessing(f, 'late.csv', 'not read');
      async function* items(): AsyncGenerator<MappedItem> {
        yield request('C-1', 1, validRequest('C-1', { comment: 'исправлено' }));
        for (const [i, id] of ids(1, N).entries()) yield request(id, i + 2);
        requeueSubmissions(f.db, { externalId: 'C-1' }, Date.now()); // `retry C-1` while the file is still read
      }
      const result = await processWith(f, row, items);
      expect(result).toMatchObject({ state: 'archived', recorded: N, corrected: 0 });
      expect(result.report.problems).toEqual([
        expect.objectContaining({ row: 1, code: 'EXTERNAL_ID_CONFLICT', message: expect.stringContaining(`submission ${dead} (state pending)`) }),
      ]);
      const c1 = f.submissions().find((s) => s.id === dead)!;
      expect(c1).toMatchObject({ state: 'pending', payload: JSON.stringify(validRequest('C-1')) });
    });
  });

  it('a rejected file leaves no staged rows behind', async () => {
    await withIntake({ ...NO_WAIT, rejectWholeFile: true }, async (f) => {
      f.db.exec(`CREATE TEMP TABLE staged_seen (id INTEGER); CREATE TEMP TRIGGER count_staged AFTER INSERT ON submissions WHEN NEW.state = 'staged'
                   BEGIN INSERT INTO staged_seen VALUES (NEW.id); END`);
      const rows = ids(1, N).map((id) => requestRow(id));
      await dropFile(f.inbox, 'bad-at-the-end.csv', requestCsv([...rows, requestRow('R-BAD', '1', { 'Кол-во': 'много' })]));
      await f.intake.start();
      expect(f.files()).toEqual([expect.objectContaining({ state: 'rejected', requestCount: 0 })]);
      expect((f.db.prepare('SELECT COUNT(*) AS n FROM staged_seen').get() as { n: number }).n).toBe(N); // staged while read…
      expect(f.submissions()).toEqual([]); // …and gone
      expect((await f.rejectedReport('bad-at-the-end.csv')).notes).toContainEqual(
        expect.objectContaining({ message: expect.stringContaining(`none of its ${N} valid`) }),
      );
    });
  });

  it('a write that fails between chunks leaves nothing visible; the next scan records the file once', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const last = ids(N, N)[0]!;
      f.db.exec(
        `CREATE TEMP TRIGGER disk_full BEFORE INSERT ON submissions WHEN NEW.external_id = '${last}' BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`,
      );
      await dropFile(f.inbox, 'big.csv', requestCsv(ids(1, N).map((id) => requestRow(id))));
      await f.intake.start();
      const [file] = f.files();
      expect(file!.state).toBe('processing');
      expect(states(f.db).staged).toBeGreaterThan(0); // the chunks before the failure
      expect(states(f.db).pending).toBeUndefined();
      expect(countSubmissionsByState(f.db)).toEqual([]);
      expect(countOutstanding(f.db, 'requests')).toBe(0);

      f.db.exec('DROP TRIGGER disk_full');
      await f.intake.scanNow();
      // Recorded from the start, not on top of what the failed run staged (that would read as N duplicates).
      expect(f.files()).toEqual([expect.objectContaining({ id: file!.id, state: 'archived', requestCount: N, report: null })]);
      expect(states(f.db)).toEqual({ pending: N });
      expect(f.submissions().map((s) => s.externalId)).toEqual(ids(1, N));
      expect(await f.list('processing')).toEqual([]);
    });
  });
});

describe('intake: a file of one chunk', () => {
  const changes = (db: Db) => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;

  it('is recorded in one transaction: each request written once, pending, never staged and released', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const row = await claimIntoProcessing(f, 'small.csv', 'not read: the items come from the test');
      const before = changes(f.db);
      async function* items(): AsyncGenerator<MappedItem> {
        yield* ids(1, 3).map((id, i) => request(id, i + 1));
      }
      const result = await processWith(f, row, items);
      expect(result).toMatchObject({ state: 'archived', recorded: 3 });
      expect(states(f.db)).toEqual({ pending: 3 });
      // The read counter and the file row, and one write per request: staged rows would be two.
      expect(changes(f.db) - before).toBe(2 + 3);
    });
  });

  it('decides duplicates, a conflict and a correction as a file in chunks does, and a rejected one writes no request', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const dead = finishedRow(f.db, 'C-1', 'dead');
      finishedRow(f.db, 'D-1', 'accepted');
      const row = await claimIntoProcessing(f, 'small.csv', 'not read: the items come from the test');
      async function* items(): AsyncGenerator<MappedItem> {
        yield request('R-1', 1);
        yield request('C-1', 2, validRequest('C-1', { comment: 'исправлено' }));
        yield request('D-1', 3);
        yield request('R-1', 4, validRequest('R-1', { comment: 'другое' }));
      }
      expect(await processWith(f, row, items)).toMatchObject({ state: 'archived', recorded: 1, corrected: 1, duplicates: 1 });
      expect(getFile(f.db, row.id)).toMatchObject({ state: 'archived', requestCount: 2, problemCount: 1 });
      expect(readFileReport(getFile(f.db, row.id)!)!.problems).toEqual([
        expect.objectContaining({ row: 4, code: 'EXTERNAL_ID_CONFLICT', message: expect.stringContaining('(row 1 of this file)') }),
      ]);
      const c1 = f.submissions().find((s) => s.externalId === 'C-1')!;
      expect(c1).toMatchObject({ id: dead, state: 'pending', fileId: row.id, sourceRow: 2 });
      expect(c1.idempotencyKey).toBe(
        prepareSubmission({ kind: 'request', externalId: 'C-1', payload: JSON.parse(c1.payload), firstRow: 2 }, SOURCE_SYSTEM).correctionKey,
      );
      expect(f.db.prepare('SELECT COUNT(*) AS n FROM staged_corrections').get()).toEqual({ n: 0 });

      const rejected = await claimIntoProcessing(f, 'bad.csv', 'not read either');
      const before = changes(f.db);
      async function* bad(): AsyncGenerator<MappedItem> {
        yield request('R-9', 1);
        yield { kind: 'problem', problem: { row: null, field: null, code: 'FILE_CHANGED', message: 'changed while it was read' } };
      }
      expect(await processWith(f, rejected, bad)).toMatchObject({ state: 'rejected', recorded: 0 });
      expect(f.submissions().map((s) => s.externalId)).not.toContain('R-9');
      // The read counter, the file row and its report's written mark: no request staged and deleted.
      expect(changes(f.db) - before).toBe(3);
    });
  });
});

describe('intake: recovery of an interrupted recording', () => {
  it('after a crash between chunks, deletes the staged rows and records the file again, once', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const content = requestCsv(ids(1, N).map((id) => requestRow(id)));
      const row = await claimIntoProcessing(f, 'crash.csv', content);
      let staged = 0;
      const stalled = new Promise<never>(() => undefined);
      async function* items(): AsyncGenerator<MappedItem> {
        for (const [i, id] of ids(1, N).entries()) {
          yield request(id, i + 1);
          staged = states(f.db).staged ?? 0;
          if (staged > 0) await stalled; // the process dies here
        }
      }
      const handle = await fs.open(row.currentPath!);
      void processClaimedFile(f.context({ mapItems: items }), row, handle);
      await new Promise((resolve) => setImmediate(resolve));
      while (staged === 0) await new Promise((resolve) => setImmediate(resolve));
      f.db.close();
      await handle.close();

      const again = f.reopen();
      const report = await again.intake.recover();
      expect(report).toMatchObject({ stagedDiscarded: staged, reprocessed: 1, failures: 0 });
      expect(getFile(again.db, row.id)).toMatchObject({ state: 'archived', requestCount: N });
      expect(states(again.db)).toEqual({ pending: N });
      expect(await f.list('processing')).toEqual([]);
    });
  });

  it('after a crash between recording the file and releasing its rows, releases them and finishes the move', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const content = requestCsv([requestRow('R-1'), requestRow('R-2')]);
      const row = await claimIntoProcessing(f, 'released.csv', content);
      const inserts = ['R-1', 'R-2'].map((id, i) =>
        prepareSubmission({ kind: 'request', externalId: id, payload: validRequest(id), firstRow: i + 1 }, SOURCE_SYSTEM),
      );
      stageChunk(f.db, { flow: 'requests', fileId: row.id, now: Date.now(), dedupeKeys: ['R-1', 'R-2'], plan: () => ({ inserts, corrections: [] }) });
      const archivePath = path.join(f.inbox, 'archive', localDate(Date.now()), storedName(row.id, 'released.csv'));
      const report = { file: 'released.csv', sha256: row.sha256, problems: [], notes: [] };
      finishRecording(f.db, { fileId: row.id, now: Date.now(), plan: () => ({ state: 'archived', duplicates: 0, report }), destinationFor: () => archivePath });
      f.db.close(); // the process dies before the release

      const again = f.reopen();
      expect(await again.intake.recover()).toMatchObject({ stagedReleased: 2, movesFinished: 1, reprocessed: 0, failures: 0 });
      expect(states(again.db)).toEqual({ pending: 2 });
      expect(await fs.readFile(archivePath, 'utf8')).toBe(content);
    });
  });
});
