/**
 * Queries on `set_aside_files`: files the intake moved to `rejected/` before it claimed them
 * (FILE_EMPTY, FILE_DUPLICATE, FILE_TOO_LARGE, FILE_NOT_REGULAR), kept for the console to list.
 * The file and its report on disk are the record for the ERP's user; the row is what the console reads.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

export interface SetAsideFile {
  id: number;
  flow: string;
  originalName: string;
  sizeBytes: number;
  /** '' when the file was not read (all but FILE_DUPLICATE). */
  sha256: string;
  code: string;
  message: string;
  /** Where the file was moved, in `rejected/`. */
  currentPath: string;
  setAsideAt: number;
}

const COLUMNS = `id, flow, original_name AS originalName, size_bytes AS sizeBytes, sha256, code, message,
  current_path AS currentPath, set_aside_at AS setAsideAt`;

export function recordSetAsideFile(db: Db, file: Omit<SetAsideFile, 'id'>): number {
  const row = statement(
    db,
    `INSERT INTO set_aside_files (flow, original_name, size_bytes, sha256, code, message, current_path, set_aside_at)
       VALUES (@flow, @originalName, @sizeBytes, @sha256, @code, @message, @currentPath, @setAsideAt) RETURNING id`,
  ).get(file) as { id: number };
  return row.id;
}

/** A flow's set-aside files, newest first, and how many there are in all. */
export function setAsideFilesOfFlow(db: Db, flow: string, limit: number): { total: number; rows: SetAsideFile[] } {
  const total = (statement(db, 'SELECT count(*) AS n FROM set_aside_files WHERE flow = ?').get(flow) as { n: number }).n;
  const rows = statement(db, `SELECT ${COLUMNS} FROM set_aside_files WHERE flow = ? ORDER BY id DESC LIMIT ?`).all(flow, limit) as SetAsideFile[];
  return { total, rows };
}
