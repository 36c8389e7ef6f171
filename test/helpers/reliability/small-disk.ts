/**
 * A real file system that really fills: a small tmpfs mounted over a folder (root only), a filler
 * file that takes it to the last byte, and a busy child process for CPU load. Each `withX` cleans
 * up whatever happens: the filler removed, the tmpfs unmounted, the busy process killed.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Why a tmpfs cannot be mounted here, or null when it can (the test then skips, saying why). */
export function cannotMountTmpfs(): string | null {
  if (process.platform !== 'linux') return `tmpfs mounts need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs for the state folder needs root (CI runs as root)';
  return null;
}

/** Mount a tmpfs of `sizeBytes` over `dir` (made if missing) for `fn`, then unmount it. */
export async function withSmallDisk<T>(dir: string, sizeBytes: number, fn: (dir: string) => Promise<T>): Promise<T> {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0755`, 'tmpfs', dir]);
  try {
    return await fn(dir);
  } finally {
    // Lazy, so that a daemon the test failed to kill cannot keep the mount (and the temp folder) busy.
    execFileSync('umount', ['-l', dir]);
  }
}

/** Bytes free on the file system holding `dir`. */
export function freeBytes(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}

export interface Filler {
  /** Bytes the filler took. */
  readonly bytes: number;
  /** Delete the filler: the space comes back. Idempotent. */
  remove(): void;
}

/**
 * Fill the file system of `dir` to the last byte with one file: large writes until ENOSPC, then
 * smaller ones down to a single byte, so that nothing at all is left (the daemon writes meanwhile,
 * and takes what it can).
 */
export function fillDisk(dir: string): Filler {
  const file = path.join(dir, `filler-${process.pid}-${Date.now()}`);
  const fd = fs.openSync(file, 'wx');
  let bytes = 0;
  try {
    for (let chunk = 1 << 20; chunk >= 1; chunk >>= 1) {
      const buffer = Buffer.alloc(chunk, 0x5a);
      for (;;) {
        try {
          bytes += fs.writeSync(fd, buffer);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  let removed = false;
  return {
    bytes,
    remove() {
      if (removed) return;
      removed = true;
      fs.rmSync(file, { force: true });
    },
  };
}

/** Run `fn` with a child process spinning on one core (the rare orderings show under load), killed afterwards. */
export async function withCpuLoad<T>(fn: () => Promise<T>): Promise<T> {
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => busy.once('exit', () => resolve()));
  try {
    return await fn();
  } finally {
    busy.kill('SIGKILL');
    await exited;
  }
}
