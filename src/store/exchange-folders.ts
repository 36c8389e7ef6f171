/**
 * Queries on `exchange_folders` (migration 10): per flow, the message files in its exchange folder
 * that are for other codes, as the intake's last scan found them. The intake decides what such a
 * file is (`exchange/stray-messages.ts`) and writes the set only when it changes; the console reads
 * it. Only names are kept: what a name tells is worked out again with the flow's codes of the day.
 */
import type { Db } from './open-store.js';
import { statement } from './statement.js';

/** A message file for other codes: its name in the folder, and when a scan first saw it (epoch ms). */
export interface FolderStray {
  name: string;
  seenAt: number;
}

/** The flow's message files for other codes, as last written ([] when there are none). */
export function strayMessagesOf(db: Db, flow: string): FolderStray[] {
  const row = statement(db, 'SELECT stray_messages AS strays FROM exchange_folders WHERE flow = ?').get(flow) as { strays: string } | undefined;
  return row === undefined ? [] : (JSON.parse(row.strays) as FolderStray[]);
}

/** Replace the flow's message files for other codes; none removes its row. */
export function saveStrayMessages(db: Db, flow: string, strays: readonly FolderStray[], now: number): void {
  if (strays.length === 0) {
    statement(db, 'DELETE FROM exchange_folders WHERE flow = ?').run(flow);
    return;
  }
  statement(
    db,
    `INSERT INTO exchange_folders (flow, stray_messages, changed_at) VALUES (?, ?, ?)
       ON CONFLICT (flow) DO UPDATE SET stray_messages = excluded.stray_messages, changed_at = excluded.changed_at`,
  ).run(flow, JSON.stringify(strays.map(({ name, seenAt }) => ({ name, seenAt }))), now);
}
