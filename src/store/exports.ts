/**
 * Queries on `exports`, the export outbox: one row per record to write into an ERP import folder.
 * Producers (delivery's acknowledgements, the webhook inbox's status changes) enqueue a row in the
 * same transaction as the state change it reports; the exporter writes files and marks rows written.
 */
import type { Db } from './open-store.js';

export const EXPORT_STATE = { pending: 'pending', written: 'written' } as const;

/** Channel of the status export; acknowledgements use `ackChannel(flow)`. */
export const STATUS_CHANNEL = 'status';
export const ackChannel = (flow: string): string => `ack:${flow}`;

export interface NewExport {
  channel: string;
  /** Makes the row unique within its channel (eventId; submission id + outcome + attempt). */
  sourceKey: string;
  /** The fields the export mapping picks its columns from. */
  record: Record<string, unknown>;
  now: number;
}

/** Enqueue a record; a second enqueue with the same channel and source key is ignored. Returns true when inserted. */
export function enqueueExport(db: Db, e: NewExport): boolean {
  const info = db
    .prepare(
      `INSERT INTO exports (channel, source_key, record, state, created_at)
       VALUES (?, ?, ?, 'pending', ?) ON CONFLICT (channel, source_key) DO NOTHING`,
    )
    .run(e.channel, e.sourceKey, JSON.stringify(e.record), e.now);
  return info.changes === 1;
}
