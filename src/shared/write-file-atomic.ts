/**
 * Atomic file write into an ERP import folder: a temp name in the same folder (`.<name>.tmp`, which
 * ERP patterns exclude), write, fsync, rename over the final name, fsync the folder. The ERP sees
 * either no file or the whole file; after the folder fsync the rename survives a power cut.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export function tempNameFor(name: string): string {
  return `.${name}.tmp`;
}

export async function writeFileAtomic(folder: string, name: string, bytes: Buffer): Promise<string> {
  await fs.mkdir(folder, { recursive: true });
  const target = path.join(folder, name);
  const temp = path.join(folder, tempNameFor(name));
  const handle = await fs.open(temp, 'w', 0o644);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncFolder(folder);
  return target;
}

async function syncFolder(folder: string): Promise<void> {
  const dir = await fs.open(folder, 'r');
  try {
    await dir.sync();
  } catch (error) {
    // Some filesystems (SMB/CIFS shares) refuse fsync on a directory; the rename itself is done.
    if (!['EINVAL', 'EPERM', 'EISDIR', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await dir.close();
  }
}
