/** The record of an export row as names and files may show it. Pure. */
import { scrubDeep } from '../log.js';
import type { PendingExport } from '../store/exports.js';

/**
 * The record, secrets scrubbed. Producers scrub what they store, but this is the last point before
 * bytes reach a folder ERP users read, so it is done here too.
 */
export function recordOf(row: PendingExport): Record<string, unknown> {
  return scrubDeep(parseRecord(row));
}

function parseRecord(row: PendingExport): Record<string, unknown> {
  try {
    const value = JSON.parse(row.record) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { record: row.record };
  }
}
