/**
 * The layout of a flow's inbox that the connector owns: `processing/`, `archive/YYYY-MM-DD/` and
 * `rejected/`. Intake fills it; housekeeping prunes the archive's old day folders. Both read the
 * layout from here, so neither has to reach into the other.
 */
import path from 'node:path';
import { localDate } from './local-time.js';

/** Sub-folders of the inbox that belong to the connector; never scanned as input. */
export const INBOX_DIRS = { processing: 'processing', archive: 'archive', rejected: 'rejected' } as const;

/** The archive folder of the day `epochMs` falls on (local time): `<inbox>/archive/YYYY-MM-DD`. */
export function archiveDayFolder(inbox: string, epochMs: number): string {
  return path.join(inbox, INBOX_DIRS.archive, localDate(epochMs));
}

/** True for the name of an archive day folder (`2026-06-12`). */
export function isArchiveDayName(name: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(name);
}
