/**
 * `Retry-After` (RFC 9110 §10.2.3): either a number of seconds or an HTTP date. Pure: the clock
 * comes in as `now`. The cap is applied by `computeRetryDelay`, not here, so the parsed value stays
 * what the platform asked for (and what we log).
 */

/** Milliseconds to wait, or undefined when the header is absent or unreadable. A date in the past gives 0. */
export function parseRetryAfter(header: string | readonly string[] | undefined | null, now: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header) as string | undefined;
  if (value === undefined || value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the HTTP date forms; a bare number with a fraction or a sign is not valid Retry-After.
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
