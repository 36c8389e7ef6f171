/**
 * Version 12: files the intake set aside in `rejected/` before it claimed them (no `files` row: an
 * empty file, an exact re-copy of a file taken before, one too large, not a regular file). Each
 * gets a row here once it is in `rejected/` with its report, so that the console lists it (the
 * flow's files page, `/attention`) with its code, as it lists the rejected files it claimed.
 */
export const SET_ASIDE_FILES_SCHEMA = `
CREATE TABLE set_aside_files (
  id INTEGER PRIMARY KEY,
  flow TEXT NOT NULL,
  original_name TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL,
  current_path TEXT NOT NULL,
  set_aside_at INTEGER NOT NULL
);
CREATE INDEX set_aside_files_flow ON set_aside_files (flow, id);
`;
