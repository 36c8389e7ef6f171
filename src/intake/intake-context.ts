/** What every intake step needs: the store, the flow, its folders, the mapper, a logger and the clock. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FlowConfig } from '../config/flow-schema.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { OpenedInput } from '../shared/input-file.js';
import type { DiskCalls } from '../shared/disk-calls.js';
import type { MappedItem } from '../mapping/types.js';
import type { Premapped } from '../mapping/map-thread.js';
import type { Db } from '../store/open-store.js';
import type { FileRecord } from '../store/files.js';
import { INBOX_DIRS } from '../shared/inbox-layout.js';
import type { FileGate } from './file-gate.js';
import type { RecordingGroup } from './recording-group.js';
import { storedName } from './inbox-names.js';
import type { Clock, RowNumbering, WaitDurable } from '../shared/types.js';

export interface InboxDirs {
  inbox: string;
  processing: string;
  archive: string;
  rejected: string;
}

export interface IntakeContext {
  db: Db;
  flow: FlowConfig;
  sourceSystem: string;
  dirs: InboxDirs;
  /**
   * Stream the mapped items of an opened file (read from byte 0; the caller closes it), named
   * `fileLabel` in messages. The current mapping is read at each call. `premapped`: what the
   * mapping thread made of the same bytes ahead of the file's turn (`premap`), taken when it was
   * made with the current mapping under the same label.
   */
  mapItems: (input: OpenedInput, fileLabel: string, premapped?: Premapped) => AsyncIterable<MappedItem>;
  /**
   * Hand a small file's whole bytes (the hash's, `fileLabel` its inbox name) to the mapping thread
   * (`mapping/map-thread.ts`) ahead of its turn; undefined when it is mapped on the event loop at
   * its turn (no thread, another format, an exchange flow).
   */
  premap?: (bytes: Buffer, fileLabel: string) => Premapped | undefined;
  /** How the problems of a file of this name number its rows (its report says so); unsaid when absent. */
  rowNumbering?: (fileName: string) => RowNumbering;
  logger: Logger;
  clock: Clock;
  /**
   * How the inbox's disk is called for a file's open and close, its metadata, a small file's read
   * and its renames (`shared/disk-calls.ts`): synchronously once `start()` has found the inbox on a
   * local disk (`inbox-disk.ts`), through the thread pool until then and on a share.
   */
  disk: DiskCalls;
  onRecorded?: (count: number) => void;
  /** Awaited before a recorded file is moved out of `processing/`: the move must never outrun its commit. */
  durable: WaitDurable;
  /** Counts files by outcome (archived, rejected, duplicate), and exchange messages by what each was taken as. */
  metrics?: Pick<Metrics, 'files'> & Partial<Pick<Metrics, 'exchangeMessages' | 'readerFaults'>>;
  /** A reader of ours failed on `file` for a reason of its own (`READER_FAULT`): logged with its stack and counted. */
  onReaderFault?: (error: unknown, file: string) => void;
  /** The daemon's bound on files taken at once across its flows (`file-gate.ts`); none beyond the flow's own lane when absent. */
  fileGate?: FileGate;
  /** A scan's queue of recorded files to move in groups (`file-moves.ts`); without it, each file is moved as it is recorded. */
  moves?: FileMoves;
  /** A scan's group of small files' recordings, one commit for several (`recording-group.ts`); without it, each is committed alone. */
  recordings?: RecordingGroup;
  /**
   * Wait until every file the scan took so far is recorded and moved: a claim that meets an earlier
   * row of the same content must see that row as it ends, and its file where it ends.
   */
  settleScan?: () => Promise<void>;
}

/** A scan's recorded files, moved out of `processing/` in groups (`file-moves.ts`). */
export interface FileMoves {
  /** Queue a recorded file's move; waits only when the queue is full. */
  add(row: FileRecord): Promise<void>;
  /** Wait until every queued file is moved; resolves with how many moves failed (logged; recovery finishes them). */
  drain(): Promise<number>;
}

export function inboxDirs(inbox: string): InboxDirs {
  return {
    inbox,
    processing: path.join(inbox, INBOX_DIRS.processing),
    archive: path.join(inbox, INBOX_DIRS.archive),
    rejected: path.join(inbox, INBOX_DIRS.rejected),
  };
}

export async function ensureInboxDirs(dirs: InboxDirs): Promise<void> {
  for (const dir of [dirs.processing, dirs.archive, dirs.rejected]) await fs.mkdir(dir, { recursive: true });
}

/** Where a file with row `id` sits while it is processed. */
export function processingPathOf(dirs: InboxDirs, id: number, originalName: string): string {
  return path.join(dirs.processing, storedName(id, originalName));
}

/** A child logger for one file, so that every line of its story carries `{ flow, file }`. */
export function fileLogger(ctx: IntakeContext, file: string): Logger {
  return ctx.logger.child({ flow: ctx.flow.name, file });
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Is there an entry (of any kind, a dangling symlink too) at `p`? Never follows a symlink. */
export async function entryExists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}
