/**
 * Version 11: what the exchange folder shows of 1C's side (`exchange-folders.ts`, `exchanges.ts`).
 * - `exchange_folders`: per flow, the message files in its folder for other codes (JSON: each
 *   name and when a scan first saw it), written only when that set changes; no row while there
 *   are none.
 * - `exchanges.peer_name_form`: under which name 1C wrote its last message to us (`plain` or
 *   `transliterated`; null before any, or when the codes read the same either way), which names our
 *   reply.
 * - `exchanges.reply_name`: the name our reply was last written under.
 */
export const EXCHANGE_FOLDER_SCHEMA = `
CREATE TABLE exchange_folders (
  flow TEXT PRIMARY KEY,
  stray_messages TEXT NOT NULL,
  changed_at INTEGER NOT NULL
) WITHOUT ROWID;
ALTER TABLE exchanges ADD COLUMN peer_name_form TEXT;
ALTER TABLE exchanges ADD COLUMN reply_name TEXT;
`;
