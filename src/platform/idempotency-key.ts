/**
 * The `Idempotency-Key` of a submission, one rule for intake (which mints it) and delivery (which
 * must tell a request's original key from the key of a correction): `<sourceSystem>:<externalId>`
 * for a request, `…:<payload hash prefix>` for a correction of it, and
 * `<sourceSystem>:confirm:<orderId>:<payload hash prefix>` for a confirmation.
 */
import { createHash } from 'node:crypto';

/** Longest key we send; past it the identifying part is replaced by its SHA-256. */
const MAX_KEY_LENGTH = 200;

/**
 * An Idempotency-Key from its parts. A header value must be visible ASCII, but an ERP's
 * externalId is often Cyrillic (`ЗК-000101`), so each part is percent-encoded (UTF-8), which is
 * deterministic and still readable for ASCII ids; an over-long key falls back to a hash.
 */
export function idempotencyKeyOf(...parts: string[]): string {
  const key = parts.map((part) => encodeURIComponent(part)).join(':');
  if (key.length <= MAX_KEY_LENGTH) return key;
  return `${encodeURIComponent(parts[0] ?? '')}:sha256:${createHash('sha256').update(parts.join('\u0000')).digest('hex')}`;
}

/** The key a request is first sent under (stable per externalId); a correction's key differs. */
export function requestKeyOf(sourceSystem: string, externalId: string): string {
  return idempotencyKeyOf(sourceSystem, externalId);
}
