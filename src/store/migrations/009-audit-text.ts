/**
 * Version 9: an audit entry keeps what its detail says as a key of the console's catalogue and
 * its parameters (JSON, `detail_text`), so that the console words it in its own language; `detail`
 * stays the English sentence the log carries. Entries written before have none (the console then
 * shows `detail`).
 */
export const AUDIT_TEXT_SCHEMA = `
ALTER TABLE audit ADD COLUMN detail_text TEXT;
`;
