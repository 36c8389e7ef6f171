/**
 * Making a file or folder refuse writes for the length of a test, even to root: `chmod 0o555` as an
 * ordinary user, the immutable flag (`chattr +i`) as root, since root ignores the mode bits.
 * `canMakeReadOnly` is false where root may not set the flag (some containers): skip those tests.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const isRoot = process.getuid?.() === 0;

/** True when this process may set the immutable flag (root with CAP_LINUX_IMMUTABLE, on a file system that has it). */
function immutableFlagWorks(): boolean {
  if (!isRoot) return false;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-chattr-'));
  const probe = path.join(dir, 'probe');
  fs.writeFileSync(probe, '');
  try {
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const canMakeReadOnly = !isRoot || immutableFlagWorks();

/** Make `entry` refuse writes for the length of `fn` (which may undo it early with `restore`); undone whatever happens. */
export async function whileReadOnly<T>(entry: string, fn: (restore: () => void) => Promise<T>): Promise<T> {
  const restore = isRoot ? () => execFileSync('chattr', ['-i', entry]) : () => fs.chmodSync(entry, 0o755);
  if (isRoot) execFileSync('chattr', ['+i', entry]);
  else fs.chmodSync(entry, 0o555);
  try {
    return await fn(restore);
  } finally {
    restore();
  }
}
