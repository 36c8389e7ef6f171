/**
 * Dates in the daemon's local time zone, as the ERP's users read them: the archive's day folders,
 * the stamp of a rejected file, "today" for the past-date rule. One place, so that the archive and
 * its housekeeping can never disagree about which day a folder is.
 */

const pad = (n: number): string => String(n).padStart(2, '0');

/** `YYYY-MM-DD` in local time. */
export function localDate(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `YYYYMMDD-HHMMSS` in local time. */
export function localStamp(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}
