/**
 * Choosing a free file name for an export file: the template's name, or `name-2.csv`,
 * `name-3.csv`… when another export row or an entry in the folder (of any kind) holds it. Called
 * inside the naming transaction, so a name taken by a file named just before counts as taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isExportFileNameTaken } from '../store/exports.js';
import type { Db } from '../store/open-store.js';
import { isPermanentNameError } from './classify-write-error.js';
import { withSuffix } from './file-name.js';

/** `base`, or the first `withSuffix(base, n)` that neither a row nor an entry in `folder` holds. */
export function chooseFreeName(db: Db, folder: string, base: string): string {
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? base : withSuffix(base, n);
    if (!isExportFileNameTaken(db, candidate) && !entryExists(path.join(folder, candidate))) return candidate;
  }
}

/**
 * Whether anything (a file, a folder, a link, dangling or not) holds `file`. A name the file system
 * refuses outright holds nothing: the write then fails for good and the row moves to its fallback.
 * Synchronous, since it runs inside the naming transaction; one `lstat` per name, and a naming
 * transaction names a bounded group.
 */
function entryExists(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    // ENOTDIR: the folder's path is broken, so nothing is there; the write will say so.
    if (isPermanentNameError(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}
