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
        stageChunk(db, {
          flow: 'f',
          fileId,
          now: T,
          dedupeKeys: ['C-1'],
          plan: () => ({ inserts: [], corrections: [{ id: dead, action: 'correct', submission: correction }] }),
        });
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
        expect(seen).toMatchObject([{ submissionId: dead, action: 'correct', externalId: 'C-1', sourceRow: 7, state: 'pending' }]);
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

describe('a document’s staged changes (staged_corrections.action)', () => {
  const document = (number: string, content: string) => ({
    kind: 'request' as const,
    externalId: `${number} DOC`,
    orderId: null,
    firstRow: 2,
    payload: `{"v":"${content}"}`,
    payloadHash: `h-${number}-${content}`,
    dedupeKey: 'DOC',
    idempotencyKey: 'erp:DOC',
    correctionKey: 'erp:DOC:h2',
    document: { id: 'DOC', number, date: '2031-01-05' },
    contentHash: `c-${content}`,
  });
  const report = { file: 'm.xml', sha256: 'x', problems: [], notes: [] };
  const finish = (db: Parameters<typeof finishRecording>[0], fileId: number, seen: { lapsed?: unknown } = {}) =>
    finishRecording(db, {
      fileId,
      now: T + 5,
      plan: (_file, lapsed) => {
        seen.lapsed = lapsed;
        return { state: 'archived', duplicates: 0, report };
      },
      destinationFor: () => 'archive/m',
    });
  const waitingRow = (db: Parameters<typeof finishRecording>[0]) => addRequestRow(db, 'f', { v: 'A' }, 'DOC', T);
  const get = (db: Parameters<typeof finishRecording>[0], id: number) =>
    db
      .prepare(
        'SELECT state, payload, external_id AS externalId, document_number AS number, idempotency_key AS key, last_error_code AS code FROM submissions WHERE id = ?',
      )
      .get(id);

  it('replace: a row still waiting takes the new version under its own key; renumber: only the number', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const id = waitingRow(db);
        const fileId = stageRequestRows(db, 'f', [], T);
        stageChunk(db, {
          flow: 'f',
          fileId,
          now: T,
          dedupeKeys: ['DOC'],
          plan: () => ({ inserts: [], corrections: [{ id, action: 'replace', submission: document('ЗП-2', 'B') }] }),
        });
        expect(get(db, id)).toMatchObject({ payload: '{"v":"A"}' });
        expect(finish(db, fileId).corrected).toBe(1);
        expect(get(db, id)).toEqual({ state: 'pending', payload: '{"v":"B"}', externalId: 'ЗП-2 DOC', number: 'ЗП-2', key: 'erp-test:DOC', code: null });

        db.prepare(`UPDATE submissions SET state = 'accepted', first_claimed_at = ? WHERE id = ?`).run(T, id);
        const next = stageRequestRows(db, 'f', [], T);
        stageChunk(db, {
          flow: 'f',
          fileId: next,
          now: T,
          dedupeKeys: ['DOC'],
          plan: () => ({ inserts: [], corrections: [{ id, action: 'renumber', submission: document('ЗП-3', 'B') }] }),
        });
        finish(db, next);
        expect(get(db, id)).toEqual({ state: 'accepted', payload: '{"v":"B"}', externalId: 'ЗП-2 DOC', number: 'ЗП-3', key: 'erp-test:DOC', code: null });
      }),
    ));

  it('a replacement whose row was claimed between its chunk and the file’s end lapses (its number still recorded)', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const id = waitingRow(db);
        const fileId = stageRequestRows(db, 'f', [], T);
        stageChunk(db, {
          flow: 'f',
          fileId,
          now: T,
          dedupeKeys: ['DOC'],
          plan: () => ({ inserts: [], corrections: [{ id, action: 'replace', submission: document('ЗП-2', 'B') }] }),
        });
        expect(claimDueSubmissions(db, { flow: 'f', now: T + 1, leaseMs: 60_000, limit: 10 }).map((row) => row.id)).toEqual([id]);
        const seen: { lapsed?: unknown } = {};
        expect(finish(db, fileId, seen).corrected).toBe(0);
        expect(seen.lapsed).toEqual([
          expect.objectContaining({
            submissionId: id,
            action: 'replace',
            state: 'in_flight',
            payload: '{"v":"A"}',
            newPayload: '{"v":"B"}',
            documentNumber: 'ЗП-2',
          }),
        ]);
        expect(get(db, id)).toMatchObject({ state: 'in_flight', payload: '{"v":"A"}', number: 'ЗП-2' });
      }),
    ));

  it('withdraw: a row still waiting is withdrawn, never sent; one claimed meanwhile lapses', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const waiting = waitingRow(db);
        const fileId = stageRequestRows(db, 'f', [], T);
        stageChunk(db, {
          flow: 'f',
          fileId,
          now: T,
          dedupeKeys: ['DOC'],
          plan: () => ({ inserts: [], corrections: [{ id: waiting, action: 'withdraw', note: 'gone' }] }),
        });
        finish(db, fileId);
        expect(get(db, waiting)).toMatchObject({ state: 'withdrawn', code: 'DOCUMENT_WITHDRAWN' });
        expect(claimDueSubmissions(db, { flow: 'f', now: T + 10, leaseMs: 60_000, limit: 10 })).toEqual([]);
        expect(deleteFinishedSubmissionsBefore(db, T * 10)).toBe(1); // not a document row (no content hash): housekeeping may go

        const claimed = addRequestRow(db, 'f', { v: 'C' }, 'DOC-2', T);
        const next = stageRequestRows(db, 'f', [], T);
        stageChunk(db, {
          flow: 'f',
          fileId: next,
          now: T,
          dedupeKeys: ['DOC-2'],
          plan: () => ({ inserts: [], corrections: [{ id: claimed, action: 'withdraw', note: 'gone' }] }),
        });
        claimDueSubmissions(db, { flow: 'f', now: T + 1, leaseMs: 60_000, limit: 10 });
        const seen: { lapsed?: unknown } = {};
        finish(db, next, seen);
        expect(seen.lapsed).toEqual([expect.objectContaining({ submissionId: claimed, action: 'withdraw', state: 'in_flight' })]);
        expect(get(db, claimed)).toMatchObject({ state: 'in_flight' });
      }),
    ));

  it('a document’s request is kept by housekeeping for as long as the store', () =>
    withTempDir((dir) =>
      withStore(dir, (db) => {
        const id = waitingRow(db);
        db.prepare(`UPDATE submissions SET state = 'accepted', finished_at = ?, content_hash = 'c' WHERE id = ?`).run(T, id);
        expect(deleteFinishedSubmissionsBefore(db, T * 10)).toBe(0);
      }),
    ));
});
