/**
 * Version 6: `files.read_attempts`, how many times the daemon began to read a claimed file. It is
 * counted (and committed) before each read; a file still `processing` whose count reached the limit
 * was being read when the daemon died that many times, so recovery rejects it unread instead of
 * reading it again: one file must not keep a crashing daemon from ever getting past its start.
 */
export const READ_ATTEMPTS_SCHEMA = `
ALTER TABLE files ADD COLUMN read_attempts INTEGER NOT NULL DEFAULT 0;
`;
