/**
 * A repeated eventId is a duplicate when its bytes are the ones stored; when they differ, the
 * platform used one id for two events. The first one stays (the eventId is the replay guard, and
 * the platform must get its 200 or it retries for ever); the conflict is logged with both hashes.
 */
import { createHash } from 'node:crypto';

export interface EventConflict {
  /** SHA-256 (hex) of the body stored under the eventId. */
  storedSha256: string;
  /** SHA-256 (hex) of the body that just arrived. */
  receivedSha256: string;
}

/**
 * Compare the raw bodies, the bytes the signature covered: a platform that resends an event
 * resends the same bytes. Returns the two hashes when they differ, null when they are the same.
 */
export function findEventConflict(storedBody: string, receivedBody: string): EventConflict | null {
  if (storedBody === receivedBody) return null;
  return { storedSha256: sha256(storedBody), receivedSha256: sha256(receivedBody) };
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
