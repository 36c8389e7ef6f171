/**
 * Is the inbox on a local disk? It decides how the intake makes what every file costs (its open
 * and close, its metadata, a small file's read, its renames: `shared/disk-calls.ts`):
 * synchronously on a local disk, through the thread pool on a share.
 * `intake.inboxDisk` says so, or with `auto` (the default) the inbox's file system does: its type
 * (`statfs`) must be one known to live on this machine, and `usePolling` (which an operator turns
 * on for a share) must be off. Anything unknown counts as a share: a wrong guess that way costs
 * some speed, the other way a daemon stalled on a hung server.
 */
import fs from 'node:fs/promises';
import type { FlowIntakeConfig } from '../config/flow-schema.js';
import { LOCAL_DISK, POOLED_DISK, type DiskCalls } from '../shared/disk-calls.js';

/**
 * Local file systems by their `statfs` magic number (linux/magic.h). Not here, so a share: NFS,
 * SMB/CIFS, FUSE (sshfs, ntfs-3g, glusterfs), 9p, Ceph, and whatever else this list does not know.
 */
const LOCAL_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0xef53, 'ext2/3/4'],
  [0x58465342, 'xfs'],
  [0x9123683e, 'btrfs'],
  [0x2fc12fc1, 'zfs'],
  [0xf2f52010, 'f2fs'],
  [0xca451a4e, 'bcachefs'],
  [0x52654973, 'reiserfs'],
  [0x3153464a, 'jfs'],
  [0x01021994, 'tmpfs'],
  [0x858458f6, 'ramfs'],
  [0x794c7630, 'overlayfs'],
]);

export interface InboxDisk {
  disk: 'local' | 'network';
  /** Why, for the start-up log: the setting, or the file system found. */
  why: string;
  calls: DiskCalls;
}

/** The local file system named by a `statfs` type, or undefined when it is not known to be local. */
export function localFileSystemOf(type: number): string | undefined {
  return LOCAL_FILE_SYSTEMS.get(type);
}

export async function inboxDiskOf(inbox: string, rules: Pick<FlowIntakeConfig, 'inboxDisk' | 'usePolling'>): Promise<InboxDisk> {
  const local = (why: string): InboxDisk => ({ disk: 'local', why, calls: LOCAL_DISK });
  const network = (why: string): InboxDisk => ({ disk: 'network', why, calls: POOLED_DISK });
  if (rules.inboxDisk === 'local') return local('intake.inboxDisk is local');
  if (rules.inboxDisk === 'network') return network('intake.inboxDisk is network');
  if (rules.usePolling) return network('intake.usePolling is on');
  let type: number;
  try {
    ({ type } = await fs.statfs(inbox));
  } catch (error) {
    return network(`the inbox's file system could not be examined (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const name = localFileSystemOf(type);
  return name === undefined ? network(`file system type 0x${type.toString(16)} is not known to be local`) : local(`file system ${name}`);
}
