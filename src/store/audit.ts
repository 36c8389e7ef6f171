/**
 * Queries on `audit`: one row per operator action taken in the console (who, what, when, result).
 * The admin stage decides what an action does and writes its row after it; the store only keeps it.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

/** How an action ended: done, found nothing to do, or failed (the detail says why). */
export const AUDIT_RESULT = { ok: 'ok', nothing: 'nothing', failed: 'failed' } as const;
export type AuditResult = (typeof AUDIT_RESULT)[keyof typeof AUDIT_RESULT];

export interface NewAuditEntry {
  at: number;
  actor: string;
  address: string | null;
  action: string;
  flow: string | null;
  target: string | null;
  result: AuditResult;
  /** The English sentence the log carries. */
  detail: string | null;
  /** The detail as a catalogue key and parameters (JSON), for the console's language (migration 9, `detail_text`). */
  detailText: string | null;
}

export interface AuditEntry extends NewAuditEntry {
  id: number;
}

/** Every column of `audit`, aliased to its `AuditEntry` name. */
const AUDIT_COLUMNS = 'id, at, actor, address, action, flow, target, result, detail, detail_text AS detailText';

export function recordAudit(db: Db, entry: NewAuditEntry): number {
  const info = statement(
    db,
    `INSERT INTO audit (at, actor, address, action, flow, target, result, detail, detail_text)
       VALUES (@at, @actor, @address, @action, @flow, @target, @result, @detail, @detailText)`,
  ).run(entry);
  return Number(info.lastInsertRowid);
}

export function getAuditEntry(db: Db, id: number): AuditEntry | undefined {
  return statement(db, `SELECT ${AUDIT_COLUMNS} FROM audit WHERE id = ?`).get(id) as AuditEntry | undefined;
}

/** Actions on one target of a flow (an externalId, a file id, the flow itself), newest first. */
export function listAuditOfTarget(db: Db, flow: string, target: string, limit = 50): AuditEntry[] {
  return statement(db, `SELECT ${AUDIT_COLUMNS} FROM audit WHERE flow = ? AND target = ? ORDER BY id DESC LIMIT ?`).all(flow, target, limit) as AuditEntry[];
}

/** The latest actions, newest first. */
export function listAudit(db: Db, limit = 100): AuditEntry[] {
  return statement(db, `SELECT ${AUDIT_COLUMNS} FROM audit ORDER BY id DESC LIMIT ?`).all(limit) as AuditEntry[];
}
