/**
 * Whether a failed export write can succeed later under the same name. Pure. The exporter retries
 * a transient failure on its next pass and moves a permanent one to a fallback name (then sets it
 * aside), so that no single file can hold up its channel for ever.
 */
import { isConnectorError } from '../errors.js';

/**
 * Errors that come back the same for the same name in the same folder, however often it is tried:
 * - `ENAMETOOLONG`: the name is longer than this file system takes (a share may take fewer than
 *   255 bytes, or count them differently);
 * - `EINVAL`: the file system refuses a character or the name itself (an SMB share and `:`, `?`,
 *   a trailing dot, a reserved name);
 * - `EILSEQ`: the name cannot be written in the file system's character set (a share mounted
 *   with a non-UTF-8 `iocharset`);
 * - `EISDIR`: a folder holds the final name, and the daemon never removes a folder it did not make;
 * - `EEXIST`: a file the daemon did not write holds the final name (the export publishes without
 *   replacing anything, `noClobber`), and it is not ours to remove.
 *
 * Left out on purpose, and so retried: `ENOTDIR` and `ENOENT` (our names hold no separator, so they
 * mean the folder's path is broken, which the operator mends and which every file of the folder
 * shares); `EACCES`, `EPERM`, `EROFS` (rights, a read-only mount, a file locked on a share);
 * `ENOSPC`, `EDQUOT`, `EIO`, `EBUSY`, `EAGAIN` (space, hardware, a busy name): a
 * fallback name would fail the same way, and each clears without anyone touching the name.
 */
export const PERMANENT_NAME_ERRORS: ReadonlySet<string> = new Set(['ENAMETOOLONG', 'EINVAL', 'EILSEQ', 'EISDIR', 'EEXIST']);

/** The system's errno code of `error` (or the one a `ConnectorError` of ours stands for, `details.errno`), if any. */
function errnoOf(error: unknown): string | undefined {
  if (isConnectorError(error)) return typeof error.details.errno === 'string' ? error.details.errno : undefined;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` is an errno error that the same name will always get (see `PERMANENT_NAME_ERRORS`). */
export function isPermanentNameError(error: unknown): boolean {
  const code = errnoOf(error);
  return code !== undefined && PERMANENT_NAME_ERRORS.has(code);
}

/** The errno code of `error`, or `ERROR` when it has none (for a reason line). */
export function errnoCode(error: unknown): string {
  return errnoOf(error) ?? 'ERROR';
}
