/**
 * How a mapped submission becomes an outbox row: the exact JSON body, its hash, the dedupe key and
 * the idempotency keys. Pure: the same submission always yields the same keys, so neither a crash
 * nor the same request dropped again ever mints a new `Idempotency-Key`.
 */
import { createHash } from 'node:crypto';
import type { MappedSubmission } from '../mapping/types.js';
import { idempotencyKeyOf, requestKeyOf } from '../platform/idempotency-key.js';
import type { PreparedSubmission } from '../store/record-file.js';

export type { PreparedSubmission } from '../store/record-file.js';

export function sha256Hex(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What a renumbering leaves alone: the hash of the payload without the externalId that carries the number. */
export function contentHashOf(payload: object): string {
  return sha256Hex(JSON.stringify({ ...payload, externalId: undefined }));
}

/** The content hash of a stored body (a request recorded before documents had an identity has none stored); null when it is not JSON. */
export function contentHashOfBody(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' ? contentHashOf(parsed) : null;
  } catch {
    return null;
  }
}

export function prepareSubmission(submission: MappedSubmission, sourceSystem: string): PreparedSubmission {
  const payload = JSON.stringify(submission.payload);
  const payloadHash = sha256Hex(payload);
  const short = payloadHash.slice(0, 16);
  if (submission.kind === 'request') {
    const document = submission.document ?? null;
    // A document is keyed by its identity, which never changes; a request without one by its externalId.
    const key = document?.id ?? submission.externalId;
    return {
      kind: 'request',
      externalId: submission.externalId,
      orderId: null,
      firstRow: submission.firstRow,
      payload,
      payloadHash,
      dedupeKey: key,
      // Stable per document: the platform sees the same key however often we retry or re-read.
      idempotencyKey: requestKeyOf(sourceSystem, key),
      correctionKey: idempotencyKeyOf(sourceSystem, key, short),
      document,
      // What a renumbering leaves alone: the payload without the externalId that carries the number.
      contentHash: document === null ? null : contentHashOf(submission.payload),
    };
  }
  const key = idempotencyKeyOf(sourceSystem, 'confirm', submission.orderId, short);
  return {
    kind: 'confirmation',
    externalId: submission.externalId,
    orderId: submission.orderId,
    firstRow: submission.firstRow,
    payload,
    payloadHash,
    dedupeKey: `${submission.orderId}:${payloadHash}`,
    idempotencyKey: key,
    // A changed confirmation has a new dedupe key and so a new row; it never corrects in place.
    correctionKey: key,
    document: null,
    contentHash: null,
  };
}
