/**
 * Version 3: an index on `exports.file_name`. The exporter asks, for every name it chooses,
 * whether a row holds it already (`isExportFileNameTaken`, any channel, any state); without an
 * index each question read the whole table, so naming a burst of n files cost n full scans of a
 * table that housekeeping keeps for `retentionDays`. Partial: a row gets a name only once it is
 * about to be written, and `file_name = ?` implies `IS NOT NULL`, so SQLite uses it for the lookup.
 */
export const EXPORT_NAMES_SCHEMA = `
CREATE INDEX exports_file_name ON exports (file_name) WHERE file_name IS NOT NULL;
`;
