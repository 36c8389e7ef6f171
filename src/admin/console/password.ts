/** The operator password check: both sides hashed to a fixed length first, so the compare is constant-time whatever their lengths. */
import { createHash, timingSafeEqual } from 'node:crypto';

export function passwordMatches(given: string, expected: string | undefined): boolean {
  if (expected === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
