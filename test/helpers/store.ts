/**
 * A real store for a test (`withStore`), and outbox rows recorded the way intake records them
 * (`addRequestRow`, `addConfirmationRow`), for tests that start at delivery or read the outbox.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ConfirmOrder } from '../../src/platform/contract.js';
import { openStore, storePath, type Db } from '../../src/store/open-store.js';
import { insertSubmission } from '../../src/store/submissions.js';

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
    idempotencyKey: `erp-test:${externalId}:${randomUUID()}`,
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

/** The store of `dir` (created and migrated), closed afterwards whatever happens. */
export async function withStore<T>(dir: string, fn: (db: Db) => Promise<T> | T): Promise<T> {
  const db = openStore(storePath(dir));
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}
