/**
 * Queries on `exports`, the export outbox: one row per record to write into an ERP import folder.
 * Producers (delivery's acknowledgements, the webhook inbox's status changes) enqueue a row in the
 * same transaction as the state change it reports; the exporter writes files and marks rows written.
 */
import type { Db } from './open-store.js';
import { statement, transact } from './statement.js';

/**
 * `pending` until its file exists, then `written`. `set_aside`: its file could not be written for a
 * permanent reason even under the fallback name; `error` says why. A set-aside row is not pending
 * (it counts nowhere as waiting, never blocks its channel) and housekeeping never deletes it.
 */
export const EXPORT_STATE = { pending: 'pending', written: 'written', setAside: 'set_aside' } as const;

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
export function enqueueExport(db: Db, entry: NewExport): boolean {
  const info = statement(
    db,
    `INSERT INTO exports (channel, source_key, record, state, created_at)
       VALUES (?, ?, ?, 'pending', ?) ON CONFLICT (channel, source_key) DO NOTHING`,
  ).run(entry.channel, entry.sourceKey, JSON.stringify(entry.record), entry.now);
  return info.changes === 1;
}

export type ExportState = (typeof EXPORT_STATE)[keyof typeof EXPORT_STATE];

/** A pending export row as the exporter reads it (camelCase: `EXPORT_COLUMNS` aliases the columns). */
export interface PendingExport {
  id: number;
  channel: string;
  sourceKey: string;
  /** JSON text of the record. */
  record: string;
  state: ExportState;
  fileName: string | null;
  createdAt: number;
  writtenAt: number | null;
  /**
   * Null for a row written under its first name. Otherwise, on a pending or written row: why its
   * first name failed for good and it moved to the fallback name (a second permanent failure then
   * sets it aside); on a set-aside row: why it was set aside.
   */
  error: string | null;
}

const EXPORT_COLUMNS = `id, channel, source_key AS sourceKey, record, state, file_name AS fileName, created_at AS createdAt, written_at AS writtenAt, error`;

/** Pending rows of a channel that have no file name yet, oldest first. */
export function listUnnamedExports(db: Db, channel: string, limit: number): PendingExport[] {
  return statement(db, `SELECT ${EXPORT_COLUMNS} FROM exports WHERE state = 'pending' AND channel = ? AND file_name IS NULL ORDER BY id LIMIT ?`).all(
    channel,
    limit,
  ) as PendingExport[];
}

/** Pending rows of a channel whose file name is chosen, oldest first (a file's rows are adjacent by name). */
export function listNamedPendingExports(db: Db, channel: string): PendingExport[] {
  return statement(db, `SELECT ${EXPORT_COLUMNS} FROM exports WHERE state = 'pending' AND channel = ? AND file_name IS NOT NULL ORDER BY id`).all(
    channel,
  ) as PendingExport[];
}

/** True when some export row (any channel, any state) already holds this file name. Uses `exports_file_name` (migration 3). */
export function isExportFileNameTaken(db: Db, fileName: string): boolean {
  return statement(db, 'SELECT 1 FROM exports WHERE file_name = ? LIMIT 1').get(fileName) !== undefined;
}

/** The exporter's naming policy: which rows share a file, and what a file is called. */
export interface NamingPolicy {
  group(rows: readonly PendingExport[]): readonly (readonly PendingExport[])[];
  /** Called once per file, after the files before it were named (so a name they took counts as taken). */
  name(group: readonly PendingExport[]): string;
}

/** A file the exporter named: its name and its rows, oldest first. */
export interface NamedExportFile {
  fileName: string;
  rows: readonly PendingExport[];
}

/**
 * Name the oldest `limit` unnamed pending rows of a channel, by `policy`, in one transaction.
 * Returns the files named, in order (their rows carry the name).
 */
export function nameUnnamedExports(db: Db, channel: string, limit: number, policy: NamingPolicy): NamedExportFile[] {
  return transact(db, () => {
    const rows = listUnnamedExports(db, channel, limit);
    const files: NamedExportFile[] = [];
    for (const group of rows.length === 0 ? [] : policy.group(rows)) {
      const fileName = policy.name(group);
      assignExportFileName(
        db,
        group.map((row) => row.id),
        fileName,
      );
      files.push({ fileName, rows: group.map((row) => ({ ...row, fileName })) });
    }
    return files;
  });
}

/** Record the chosen file name on rows that have none. Call inside the naming transaction. */
export function assignExportFileName(db: Db, ids: readonly number[], fileName: string): void {
  const update = statement(db, "UPDATE exports SET file_name = ? WHERE id = ? AND state = 'pending' AND file_name IS NULL");
  for (const id of ids) update.run(fileName, id);
}

/**
 * Give the pending rows of a file whose name failed for good their fallback name, and keep why on
 * the rows (`error`), in one transaction. The next pass writes them under the new name.
 */
export function moveExportsToFallbackName(db: Db, ids: readonly number[], fileName: string, reason: string): void {
  const update = statement(db, "UPDATE exports SET file_name = ?, error = ? WHERE id = ? AND state = 'pending'");
  transact(db, () => {
    for (const id of ids) update.run(fileName, reason, id);
  });
}

/** Set the pending rows of a file that can never be written aside with the reason, in one transaction. Returns rows changed. */
export function setExportsAside(db: Db, ids: readonly number[], reason: string): number {
  const update = statement(db, "UPDATE exports SET state = 'set_aside', error = ? WHERE id = ? AND state = 'pending'");
  return transact(db, () => ids.reduce((n, id) => n + update.run(reason, id).changes, 0));
}

/**
 * Mark the rows of written files as written, in one transaction (the exporter passes a whole
 * group of files: one commit for the group). Returns rows changed.
 */
export function markExportsWritten(db: Db, ids: readonly number[], now: number): number {
  const update = statement(db, "UPDATE exports SET state = 'written', written_at = ? WHERE id = ? AND state = 'pending'");
  return transact(db, () => ids.reduce((n, id) => n + update.run(now, id).changes, 0));
}

export function countExports(db: Db, filter: { channel?: string; state?: ExportState } = {}): number {
  const row = statement(db, 'SELECT count(*) AS n FROM exports WHERE (@channel IS NULL OR channel = @channel) AND (@state IS NULL OR state = @state)').get({
    channel: filter.channel ?? null,
    state: filter.state ?? null,
  }) as { n: number };
  return row.n;
}

/** Housekeeping: delete rows written before `cutoffMs`. Pending and set-aside rows are never deleted. Returns rows deleted. */
export function deleteWrittenExportsOlderThan(db: Db, cutoffMs: number): number {
  return statement(db, "DELETE FROM exports WHERE state = 'written' AND written_at < ?").run(cutoffMs).changes;
}
