/**
 * Rows of a file still being recorded (`staged`) are nobody's but the recording's: delivery never
 * claims them, `status`, metrics and the daily summary do not count them, `retry` and housekeeping
 * do not touch them; and they become `pending` only for a file recorded `archived`.
 */
import { describe, expect, it } from 'vitest';
import { readOutboxStatus } from '../../src/delivery/outbox-status.js';
import { deleteFinishedSubmissionsBefore } from '../../src/store/housekeeping.js';
import { claimDueSubmissions, countOutstanding, countSubmissionsByState, nextDueAt, oldestPendingByFlow, requeueSubmissions } from '../../src/store/outbox.js';
import { finishRecording, listUnsettledFiles, stageChunk } from '../../src/store/record-file.js';
import { deleteStagedSubmissions, releaseStagedSubmissions } from '../../src/store/submissions.js';
import { getFile } from '../../src/store/files.js';
import { openStore, storePath } from '../../src/store/open-store.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { addRequestRow, stageRequestRows, withStore } from '../helpers/store.js';
import { validRequest } from '../helpers/fixtures.js';

const T = 1_000_000;
const states = (db: Parameters<typeof countOutstanding>[0]) =>
  Object.fromEntries(
    (db.prepare('SELECT state, COUNT(*) AS n FROM submissions GROUP BY state').all() as { state: string; n: number }[]).map((r) => [r.state, r.n]),
  );

describe('staged rows', () => {
  it('are never claimed, counted or requeued, however due they are', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        stageRequestRows(db, 'f', ['S-1', 'S-2'], T - 60_000);
        const pending = addRequestRow(db, 'f', validRequest('P-1'), 'P-1', T);
        expect(states(db)).toEqual({ staged: 2, pending: 1 });

        expect(nextDueAt(db, 'f')).toBe(T);
        expect(countOutstanding(db, 'f')).toBe(1);
        expect(countSubmissionsByState(db)).toEqual([{ flow: 'f', state: 'pending', count: 1 }]);
        expect(oldestPendingByFlow(db)).toEqual([{ flow: 'f', createdAt: T }]);
        expect(readOutboxStatus(db, T, ['f']).flows).toEqual([{ flow: 'f', counts: { pending: 1 }, oldestPendingAgeMs: 0 }]);
        expect(requeueSubmissions(db, { externalId: 'S-1' }, T)).toBe(0);
        expect(requeueSubmissions(db, { dead: true }, T)).toBe(0);
        expect(requeueSubmissions(db, { rejected: true }, T)).toBe(0);
        expect(deleteFinishedSubmissionsBefore(db, T * 10)).toBe(0);

        expect(claimDueSubmissions(db, { flow: 'f', now: T * 10, leaseMs: 1_000, limit: 10 }).map((r) => r.id)).toEqual([pending]);
        expect(claimDueSubmissions(db, { flow: 'f', now: T * 10 + 5_000, leaseMs: 1_000, limit: 10 }).map((r) => r.id)).toEqual([pending]);
        expect(states(db)).toEqual({ staged: 2, in_flight: 1 });
      }),
    ));

  it('are listed to settle after a listing found none, once a chunk is staged; and by the next connection (a restart)', () =>
    withTempDir(async (dir) => {
      await withStore(dir, (db) => {
        expect(listUnsettledFiles(db, 'f')).toEqual([]);
        expect(listUnsettledFiles(db, 'f')).toEqual([]);
        const fileId = stageRequestRows(db, 'f', ['S-1'], T);
        expect(listUnsettledFiles(db, 'f')).toEqual([{ id: fileId, state: 'processing' }]);
        expect(listUnsettledFiles(db, 'g')).toEqual([]);
        const staged = stageRequestRows(db, 'g', ['S-2'], T);
        expect(listUnsettledFiles(db, 'g')).toEqual([{ id: staged, state: 'processing' }]);
        const restarted = openStore(storePath(dir));
        try {
          expect(listUnsettledFiles(restarted, 'g')).toEqual([{ id: staged, state: 'processing' }]);
        } finally {
          restarted.close();
        }
      });
    }));

  it('become pending only for a file recorded archived, and are deleted only for one that is not', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const fileId = stageRequestRows(db, 'f', ['S-1', 'S-2', 'S-3'], T);
        expect(releaseStagedSubmissions(db, fileId, 10, T)).toBe(0); // still processing
        expect(listUnsettledFiles(db, 'f')).toEqual([{ id: fileId, state: 'processing' }]);

        const report = { file: 'staged.csv', sha256: 'x', problems: [], notes: [] };
        const result = finishRecording(db, { fileId, now: T, plan: () => ({ state: 'archived', duplicates: 0, report }), destinationFor: () => 'archive/x' });
        expect(result).toMatchObject({ state: 'archived', recorded: 3, corrected: 0 });
        expect(states(db)).toEqual({ staged: 3 }); // decided; released by the caller, a batch at a time
        expect(deleteStagedSubmissions(db, fileId, 10)).toBe(0); // the requests of an archived file are never deleted
        expect(releaseStagedSubmissions(db, fileId, 2, T)).toBe(2);
        expect(releaseStagedSubmissions(db, fileId, 2, T)).toBe(1);
        expect(states(db)).toEqual({ pending: 3 });
        expect(listUnsettledFiles(db, 'f')).toEqual([]);

        const rejected = stageRequestRows(db, 'f', ['S-4'], T);
        finishRecording(db, { fileId: rejected, now: T, plan: () => ({ state: 'rejected', duplicates: 0, report }), destinationFor: () => 'rejected/x' });
        expect(releaseStagedSubmissions(db, rejected, 10, T)).toBe(0);
        expect(deleteStagedSubmissions(db, rejected, 10)).toBe(1);
        expect(states(db)).toEqual({ pending: 3 });
      }),
    ));

  it('a staged correction waits for the file, keeps housekeeping off its row, and lapses if the row is requeued meanwhile', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const dead = addRequestRow(db, 'f', validRequest('C-1'), 'C-1', T);
        db.prepare(`UPDATE submissions SET state = 'dead', finished_at = ? WHERE id = ?`).run(T, dead);
        const fileId = stageRequestRows(db, 'f', [], T);
        const correction = {
          kind: 'request' as const,
          externalId: 'C-1',
          orderId: null,
          firstRow: 7,
          payload: '{"v":2}',
          payloadHash: 'h2',
          dedupeKey: 'C-1',
          idempotencyKey: 'k',
          correctionKey: 'k:h2',
        };
        stageChunk(db, { flow: 'f', fileId, now: T, dedupeKeys: ['C-1'], plan: () => ({ inserts: [], corrections: [{ id: dead, submission: correction }] }) });
        expect(db.prepare('SELECT state, payload FROM submissions WHERE id = ?').get(dead)).toEqual({
          state: 'dead',
          payload: JSON.stringify(validRequest('C-1')),
        });
        expect(deleteFinishedSubmissionsBefore(db, T * 10)).toBe(0);

        requeueSubmissions(db, { externalId: 'C-1' }, T + 1);
        let seen: unknown;
        const report = { file: 'staged.csv', sha256: 'x', problems: [], notes: [] };
        const result = finishRecording(db, {
          fileId,
          now: T + 2,
          plan: (_file, lapsed) => {
            seen = lapsed;
            return { state: 'archived', duplicates: 0, report };
          },
          destinationFor: () => 'archive/x',
        });
        expect(seen).toEqual([{ submissionId: dead, externalId: 'C-1', sourceRow: 7, state: 'pending' }]);
        expect(result.corrected).toBe(0);
        expect(db.prepare('SELECT state, payload FROM submissions WHERE id = ?').get(dead)).toEqual({
          state: 'pending',
          payload: JSON.stringify(validRequest('C-1')),
        });
        expect(db.prepare('SELECT COUNT(*) AS n FROM staged_corrections').get()).toEqual({ n: 0 });
      }),
    ));

  it('staging the same externalId twice fails, and a release makes the staged row pending', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const fileId = stageRequestRows(db, 'f', ['S-1'], T);
        expect(() => stageRequestRows(db, 'f', ['S-1'], T)).toThrow(/UNIQUE/);
        db.prepare(`UPDATE files SET state = 'archived' WHERE id = ?`).run(fileId);
        expect(releaseStagedSubmissions(db, fileId, 10, T)).toBe(1);
      }),
    ));
  it('unsettled files are found from the staged rows, not by reading every file the flow ever took (asked before each file)', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const fileId = stageRequestRows(db, 'f', ['S-1'], T);
        const prepared: string[] = [];
        const prepare = db.prepare.bind(db);
        db.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof db.prepare;
        expect(listUnsettledFiles(db, 'f')).toEqual([{ id: fileId, state: 'processing' }]);
        db.prepare = prepare;
        const sql = prepared.find((text) => /FROM files/.test(text))!;
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('f') as { detail: string }[]).map((step) => step.detail).join('; ');
        expect(plan).toMatch(/SEARCH files USING INTEGER PRIMARY KEY/);
        expect(plan).not.toMatch(/files_flow|SCAN files/);
      }),
    ));

  it('a decided file comes back with its row as the store now holds it, so that nothing reads it again to move it', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const archived = stageRequestRows(db, 'f', ['A-1'], T);
        const rejected = stageRequestRows(db, 'f', ['B-1'], T);
        const clean = { file: 'a.csv', sha256: 'x', problems: [], notes: [] };
        const bad = { file: 'b.csv', sha256: 'y', problems: [{ row: 2, field: 'customer.inn', code: 'INN_INVALID' as const, message: 'no' }], notes: [] };
        const a = finishRecording(db, {
          fileId: archived,
          now: T + 1,
          plan: () => ({ state: 'archived', duplicates: 0, report: clean }),
          destinationFor: () => 'archive/a',
        });
        const b = finishRecording(db, {
          fileId: rejected,
          now: T + 2,
          plan: () => ({ state: 'rejected', duplicates: 0, report: bad }),
          destinationFor: () => 'rejected/b',
        });
        expect(a.file).toEqual(getFile(db, archived));
        expect(b.file).toEqual(getFile(db, rejected));
        expect(b.file).toMatchObject({ state: 'rejected', currentPath: 'rejected/b', reportPending: 1, problemCount: 1, finishedAt: T + 2 });
        // Asked again: nothing changes, and the row comes back as it is.
        const again = finishRecording(db, {
          fileId: rejected,
          now: T + 3,
          plan: () => ({ state: 'archived', duplicates: 0, report: clean }),
          destinationFor: () => 'archive/b',
        });
        expect(again).toMatchObject({ alreadyRecorded: true, state: 'rejected' });
        expect(again.file).toEqual(getFile(db, rejected));
      }),
    ));
});
