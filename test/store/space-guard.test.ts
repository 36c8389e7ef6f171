/**
 * The space guard: writes held back from the first checkpoint that fails for lack of space until
 * one copies the whole WAL. First its decisions with a clock of our own, then the daemon's store on
 * a small tmpfs that really fills (root only: skipped elsewhere, saying why).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../src/errors.js';
import { createStore, storePath } from '../../src/store/open-store.js';
import { createSpaceGuard, isDiskFull } from '../../src/store/space-guard.js';
import { statement } from '../../src/store/statement.js';
import { cannotMountTmpfs, fillDisk, withSmallDisk } from '../helpers/reliability/small-disk.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';

const full = (): Error => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

function guardWithClock() {
  let now = 0;
  let probes = 0;
  const changes: boolean[] = [];
  const guard = createSpaceGuard({
    file: '/state/connector.sqlite',
    probe: () => (probes += 1),
    probeIntervalMs: 100,
    now: () => now,
    onChange: (holding) => changes.push(holding),
  });
  return {
    guard,
    changes,
    probes: () => probes,
    advance: (ms: number) => (now += ms),
  };
}

function refusal(assert: () => void): unknown {
  try {
    assert();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('space guard', () => {
  it('knows SQLITE_FULL, also as the cause of a wrapping error, and nothing else', () => {
    expect(isDiskFull(full())).toBe(true);
    expect(isDiskFull(new ConnectorError('STORE_FAILED', 'a checkpoint failed', { cause: full() }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }))).toBe(false);
    expect(isDiskFull('SQLITE_FULL')).toBe(false);
  });

  it('holds writes from a checkpoint that failed for lack of space until one copies the whole WAL, saying so once each way', async () => {
    const { guard, changes, probes, advance } = guardWithClock();
    guard.assertWritable();
    // A checkpoint that failed for another reason is not a full disk.
    guard.noteCheckpoint({ ok: false, error: Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }) });
    expect(guard.holding).toBe(false);

    guard.noteCheckpoint({ ok: false, error: full() });
    guard.noteCheckpoint({ ok: false, error: full() });
    expect(guard.holding).toBe(true);
    expect(changes).toEqual([true]);
    const error = refusal(() => guard.assertWritable());
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).code).toBe('STORE_DISK_FULL');
    expect(isDiskFull(error)).toBe(true);

    // The failed checkpoint was the first probe: the next is asked for once the interval passed,
    // outside the caller's statement, and not again within the interval.
    await nextTurn();
    expect(probes()).toBe(0);
    advance(100);
    refusal(() => guard.assertWritable());
    refusal(() => guard.assertWritable());
    await nextTurn();
    expect(probes()).toBe(1);

    // A checkpoint that left frames behind does not let writes go; the one that copied all does.
    guard.noteCheckpoint({ ok: true, log: 40, checkpointed: 12 });
    expect(guard.holding).toBe(true);
    guard.noteCheckpoint({ ok: true, log: 40, checkpointed: 40 });
    expect(guard.holding).toBe(false);
    guard.assertWritable();
    guard.noteCheckpoint({ ok: true, log: 0, checkpointed: 0 });
    expect(changes).toEqual([true, false]);
  });

  const skip = cannotMountTmpfs();
  it.skipIf(skip !== null)(
    'on a disk that really fills: writes refused with STORE_DISK_FULL, and taken again once space is back',
    { timeout: 60_000 },
    async () => {
      await withTempDir(async (root) => {
        const dir = `${root}/state`;
        await withSmallDisk(dir, 8 * 1024 * 1024, async () => {
          const changes: boolean[] = [];
          const component = createStore(storePath(dir), { checkpointIntervalMs: 20, onSpaceChange: (holding) => changes.push(holding) });
          const { db, space } = await component.start();
          let filler: ReturnType<typeof fillDisk> | undefined;
          try {
            db.exec('CREATE TABLE blob (b BLOB)');
            const insert = () => statement(db, 'INSERT INTO blob VALUES (?)').run(Buffer.alloc(16 * 1024, 7));
            // A WAL that grew earlier: on the full disk, commits still fit in it while the database
            // file has no room for their pages.
            db.transaction(() => {
              for (let i = 0; i < 64; i += 1) insert();
            })();
            filler = fillDisk(dir);
            await waitUntil(
              () => {
                try {
                  insert();
                } catch {
                  // Refused (SQLITE_FULL, then STORE_DISK_FULL): what the stages see.
                }
                return space.holding;
              },
              'a checkpoint to fail for lack of space',
              30_000,
            );
            const refused = refusal(insert);
            expect((refused as ConnectorError).code).toBe('STORE_DISK_FULL');
            // Reads go on.
            expect(statement(db, 'SELECT COUNT(*) AS n FROM blob').get()).toBeTruthy();

            filler.remove();
            await waitUntil(() => refusal(insert) === undefined, 'writes taken again once space is back', 30_000);
            expect(space.holding).toBe(false);
            expect(changes).toEqual([true, false]);
            expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
          } finally {
            filler?.remove();
            await component.stop();
          }
        });
      });
    },
  );
});
