/**
 * A real store for a test (`withStore`), and outbox rows recorded the way intake records them
 * (`addRequestRow`, `addConfirmationRow`; `stageRequestRows` for a file still being recorded), for
 * tests that start at delivery or read the outbox.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ConfirmOrder } from '../../src/platform/contract.js';
import { requestKeyOf } from '../../src/platform/idempotency-key.js';
import { claimFile } from '../../src/store/files.js';
import { openStore, storePath, type Db } from '../../src/store/open-store.js';
import { stageChunk, type PreparedSubmission } from '../../src/store/record-file.js';
import { insertSubmission } from '../../src/store/submissions.js';
import { validRequest } from './fixtures.js';

/** Record a request in the outbox the way intake does; returns the row id. */
export function addRequestRow(db: Db, flow: string, payload: unknown, externalId = (payload as { externalId: string }).externalId, now = Date.now()): number {
  const text = JSON.stringify(payload);
  return insertSubmission(db, {
    flow,
    kind: 'request',
    dedupeKey: externalId,
    externalId,
    payload: text,
    payloadHash: createHash('sha256').update(text).digest('hex'),
    // The key intake gives an original request (`erp-test` is the tests' platform.sourceSystem).
    idempotencyKey: requestKeyOf('erp-test', externalId),
    now,
  });
}

export function addConfirmationRow(db: Db, flow: string, orderId: string, payload: ConfirmOrder, now = Date.now()): number {
  const text = JSON.stringify(payload);
  const hash = createHash('sha256').update(text).digest('hex');
  return insertSubmission(db, {
    flow,
    kind: 'confirmation',
    dedupeKey: `${orderId}:${hash}`,
    externalId: orderId,
    orderId,
    payload: text,
    payloadHash: hash,
    idempotencyKey: `erp-test:${orderId}:${hash.slice(0, 16)}`,
    now,
  });
}

/**
 * A claimed (`processing`) file whose requests are staged as the intake stages a chunk: in the
 * outbox, not yet its to deliver. Returns the file's id.
 */
export function stageRequestRows(db: Db, flow: string, externalIds: readonly string[], now = Date.now()): number {
  const claim = claimFile(db, { flow, sha256: randomUUID(), originalName: 'staged.csv', sizeBytes: 1, now }, () => 'processing/staged.csv');
  if (!claim.ok) throw new Error('expected a new claim');
  const inserts = externalIds.map((externalId, i): PreparedSubmission => {
    const payload = JSON.stringify(validRequest(externalId));
    const payloadHash = createHash('sha256').update(payload).digest('hex');
    return {
      kind: 'request',
      externalId,
      orderId: null,
      firstRow: i + 1,
      payload,
      payloadHash,
      dedupeKey: externalId,
      idempotencyKey: `erp-test:${externalId}`,
      correctionKey: `erp-test:${externalId}:${payloadHash.slice(0, 16)}`,
    };
  });
  stageChunk(db, { flow, fileId: claim.row.id, now, dedupeKeys: externalIds, plan: () => ({ inserts, corrections: [] }) });
  return claim.row.id;
}

/** The store of `dir` (created and migrated), closed afterwards whatever happens. */
export async function withStore<T>(dir: string, fn: (db: Db) => Promise<T> | T): Promise<T> {
  const db = openStore(storePath(dir));
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}
