/** The record of an export row as names and files may show it. Pure. */
import type { PendingExport } from '../store/exports.js';

/**
 * The record as it was stored. Nothing is scrubbed here: the values are the ERP's and the
 * platform's (an externalId, an order id, a status), and a secret that happens to read like part
 * of one (a four-digit console password, `0001`) must not rewrite them. Secrets are kept out where
 * they can actually appear: log lines, the platform's error bodies before they are stored
 * (`platform/classify-failure.ts`), URLs.
 */
export function recordOf(row: PendingExport): Record<string, unknown> {
  return parseRecord(row);
}

function parseRecord(row: PendingExport): Record<string, unknown> {
  try {
    const value = JSON.parse(row.record) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { record: row.record };
  }
}
