/**
 * Writes held back while the state disk is full, so that the space that comes back goes to the
 * checkpoint first.
 *
 * In WAL mode a commit appends pages to the `-wal` file, and a checkpoint later copies them into
 * the database file, which must grow for the new ones; the WAL starts over from its beginning only
 * once a checkpoint has copied all of it, and SQLite never shrinks the file. On a full disk the
 * checkpoint fails, yet commits go on succeeding for as long as they fit in the room the WAL file
 * already has (it grew under earlier load): each of them adds pages the database file will need
 * room for. When space comes back, commits and checkpoints race for it. Each commit that does not
 * fit grows the WAL; a checkpoint cannot finish until the database file found room for every page
 * the WAL holds. Under load the commits won: the WAL took all the space freed, and from then on
 * every write failed with SQLITE_FULL, though the disk had been emptied (docs/reliability.md,
 * "The state disk fills").
 *
 * So once a checkpoint fails for lack of space, the guard holds writes back:
 * `assertWritable()` throws `STORE_DISK_FULL` (the stages treat it as any store failure: a webhook
 * is answered 503, a file stays to be taken again, an export pass ends) and asks for a checkpoint,
 * at most one every `probeIntervalMs`. The first checkpoint that copies the whole WAL lets writes go
 * on: the next commit starts the WAL over in the room the file already has. Reads are never held.
 */
import { ConnectorError } from '../errors.js';

/** What a `wal_checkpoint` reported: frames in the WAL (`log`) and frames copied into the database (`checkpointed`). */
export type CheckpointOutcome = { ok: true; log: number; checkpointed: number } | { ok: false; error: unknown };

export interface SpaceGuard {
  /** Writes are held back (the disk was found full and no checkpoint has caught up since). */
  readonly holding: boolean;
  /** Throws `STORE_DISK_FULL` while holding, and asks for a checkpoint (not more than one per `probeIntervalMs`). */
  assertWritable(): void;
  /** A checkpoint ended: one that failed for lack of space holds writes back, one that copied the whole WAL lets them go on. */
  noteCheckpoint(outcome: CheckpointOutcome): void;
}

export interface SpaceGuardOptions {
  /** The database file, for the message. */
  file: string;
  /** Ask for a checkpoint now; its outcome comes back through `noteCheckpoint`. Called outside any transaction. */
  probe: () => void;
  /** Least time between two checkpoints asked for while holding. Default 100 ms. */
  probeIntervalMs?: number;
  /** Monotonic milliseconds. Default `performance.now()`. */
  now?: () => number;
  /** Told once when writes are held back (with the failure) and once when they go on again. */
  onChange?: (holding: boolean, cause?: unknown) => void;
}

/** SQLite's "database or disk is full" (better-sqlite3's `SqliteError.code`), also as the cause of a wrapping error. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if ((e as { code?: unknown }).code === 'SQLITE_FULL') return true;
  }
  return false;
}

export function createSpaceGuard(options: SpaceGuardOptions): SpaceGuard {
  const probeIntervalMs = options.probeIntervalMs ?? 100;
  const now = options.now ?? (() => performance.now());
  let holding = false;
  let lastProbeAt = Number.NEGATIVE_INFINITY;
  let cause: unknown;

  const hold = (error: unknown): void => {
    if (holding) return;
    holding = true;
    cause = error;
    // The checkpoint that just failed counts as the first probe.
    lastProbeAt = now();
    options.onChange?.(true, error);
  };

  return {
    get holding() {
      return holding;
    },
    assertWritable() {
      if (!holding) return;
      const at = now();
      if (at - lastProbeAt >= probeIntervalMs) {
        lastProbeAt = at;
        // Not now: a caller may be inside a transaction, where a checkpoint of this connection cannot run.
        setImmediate(options.probe);
      }
      throw new ConnectorError('STORE_DISK_FULL', `The state disk is full: ${options.file} takes no writes until a checkpoint of its WAL gets through`, {
        cause,
      });
    },
    noteCheckpoint(outcome) {
      if (!outcome.ok) {
        if (isDiskFull(outcome.error)) hold(outcome.error);
        return;
      }
      // log -1: not in WAL mode; checkpointed < log: frames left (a reader, or a commit landing meanwhile).
      if (!holding || outcome.checkpointed < outcome.log) return;
      holding = false;
      cause = undefined;
      options.onChange?.(false);
    },
  };
}
