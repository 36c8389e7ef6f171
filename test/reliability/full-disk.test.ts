/**
 * The state folder's disk fills and empties. The daemon's state folder is a small tmpfs of its
 * own; while signed status events stream in (16 senders) and a request file arrives, a filler file
 * takes the file system to the last byte, stays a while, and is removed. Each time, under CPU load
 * (a busy child process, so that the rare orderings show), and with no restart: once space is
 * back, events are answered 2xx again, every event ever answered 2xx reaches the import folder, and
 * the request file's requests reach the platform. The first test runs 20 rounds, each on a fresh
 * disk and daemon (each round meets the disk's first fill); the second runs 6 rounds on one state,
 * restarting the daemon (SIGKILL or SIGTERM, in turn) while the disk is still full.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { storePath } from '../../src/store/open-store.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess, type DaemonProcess } from '../helpers/reliability/daemon-process.js';
import { acceptedIds, startEventStream, statusCounts, type EventStream } from '../helpers/reliability/event-stream.js';
import { watchExportedEvents, type ExportedEvents } from '../helpers/reliability/exported-events.js';
import { createRandom } from '../helpers/reliability/random.js';
import { dropFile, externalIdsOf, requestFile } from '../helpers/reliability/request-files.js';
import { SECRETS, prepareDaemon, type DaemonLayout } from '../helpers/reliability/setup.js';
import { cannotMountTmpfs, fillDisk, freeBytes, withCpuLoad, withSmallDisk } from '../helpers/reliability/small-disk.js';
import { waitUntil } from '../helpers/wait-until.js';

/** The state folder's file system: a few rounds' events and a WAL grown under load fill it. */
const DISK_BYTES = Number(process.env.DISK_MB ?? 32) * 1024 * 1024;
/** Requests in each round's file. */
const PER_FILE = 3;
/** "Within seconds": the bound on each wait once space is back (a failure, never a measure). */
const RECOVERY_MS = 20_000;

const skip = cannotMountTmpfs();
if (skip) console.warn(`[reliability full-disk] skipped: ${skip}`);

/** One daemon on its small disk, and what its rounds saw. */
interface Scenario {
  layout: DaemonLayout;
  sandbox: Sandbox;
  daemon: DaemonProcess;
  exported: ExportedEvents;
  random: ReturnType<typeof createRandom>;
  run: string;
  /** Every eventId answered 2xx. */
  accepted: Set<string>;
  /** Every request dropped. */
  requests: string[];
}

/** Figures of all rounds, for the line printed at the end. */
interface Figures {
  rounds: number;
  accepted: number;
  refusedWhileFull: number;
  /** Times the daemon logged that it held writes back for a full disk (and, as many times, that it let them go). */
  held: number;
  largestWalAtFill: number;
}

type Restart = 'none' | 'kill' | 'stop';

const walBytes = (stateDir: string): number => {
  const wal = `${storePath(stateDir)}-wal`;
  return fs.existsSync(wal) ? fs.statSync(wal).size : 0;
};

/** A count read from the store beside the daemon (or after it). */
function countInStore(stateDir: string, sql: string): number {
  const db = new Database(storePath(stateDir), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Export rows not yet written. */
const pendingExports = (stateDir: string): number => countInStore(stateDir, "SELECT COUNT(*) AS n FROM exports WHERE state <> 'written'");

/**
 * Requests not yet settled. The platform has a request before its answer reaches the daemon, and
 * the daemon enqueues the request's acknowledgement with the answer it records: until then no
 * export row of it exists to be pending.
 */
const unsettledRequests = (stateDir: string): number =>
  countInStore(stateDir, "SELECT COUNT(*) AS n FROM submissions WHERE state IN ('pending', 'in_flight', 'staged')");

/** Events streaming, the disk filled, a file dropped, (a restart,) space back: everything flows again. */
async function round(s: Scenario, n: number, restart: Restart, figures: Figures): Promise<void> {
  const { layout, daemon } = s;
  const stream = startEventStream({
    url: `${daemon.webhookBase}/webhooks/service`,
    secret: SECRETS.webhookSecret,
    first: (n + 1) * 1_000_000,
    concurrency: 16,
  });
  const failing = (what: string) => (error: Error) => {
    throw new Error(
      `${error.message}; ${what}: answers ${statusCounts(stream.answers)}, free ${freeBytes(layout.stateDir)} bytes, WAL ${walBytes(layout.stateDir)} bytes`,
    );
  };
  try {
    // A random stretch of load first: the WAL grows under it as it would in a storm.
    const before = s.random.between(500, 4_000);
    await waitWhileProgressing(
      () => acceptedIds(stream.answers).length >= before,
      () => stream.answers.length,
      () => `round ${n}: ${before} events answered 200 before the fill`,
    ).catch(failing('before the fill'));
    figures.largestWalAtFill = Math.max(figures.largestWalAtFill, walBytes(layout.stateDir));
    const filler = fillDisk(layout.stateDir);
    try {
      const atFill = stream.started;
      const from = n * PER_FILE;
      dropFile(layout.inbox, `full-${String(n).padStart(2, '0')}.csv`, requestFile(s.run, from, from + PER_FILE));
      s.requests.push(...externalIdsOf(s.run, from + PER_FILE).slice(from));
      // The disk did stop the store (otherwise the round proves nothing).
      const refused = () => stream.answeredAfter(atFill).filter((a) => a.status === 503).length;
      await waitUntil(() => refused() >= 10, `round ${n}: the daemon to answer 503 on the full disk`, 30_000).catch(failing('while full'));
      // Full for a while: events keep coming, intake and the exporter keep trying.
      await sleep(s.random.between(0, 1_500));
      if (restart === 'kill') await daemon.kill();
      if (restart === 'stop') expect(await daemon.stop()).toBe(0);
      if (restart !== 'none') await daemon.start();
      figures.refusedWhileFull += refused();
    } finally {
      filler.remove();
    }
    const atSpace = stream.started;
    await waitUntil(
      () => acceptedIds(stream.answeredAfter(atSpace)).length >= 100,
      `round ${n}: events answered 200 again once space is back`,
      RECOVERY_MS,
    ).catch(failing('after space came back'));
  } finally {
    await stream.stop();
  }
  await expectEverythingThrough(s, n, stream);
}

/**
 * Wait until `done`, for as long as `progress` keeps growing: a backlog of thousands of per-event
 * files takes its time under CPU load, and only a wait that stopped moving is a failure.
 */
async function waitWhileProgressing(done: () => boolean, progress: () => number, what: () => string): Promise<void> {
  let last = progress();
  let lastMovedAt = Date.now();
  await waitUntil(
    () => {
      if (done()) return true;
      const now = progress();
      if (now !== last) [last, lastMovedAt] = [now, Date.now()];
      if (Date.now() - lastMovedAt > RECOVERY_MS) throw new Error(`${what()}: no progress for ${RECOVERY_MS} ms`);
      return false;
    },
    what(),
    { timeoutMs: 10 * 60_000, intervalMs: 100 },
  );
}

/** Every event answered 2xx so far in the import folder, every request dropped so far at the platform. */
async function expectEverythingThrough(s: Scenario, n: number, stream: EventStream): Promise<void> {
  for (const id of acceptedIds(stream.answers)) s.accepted.add(id);
  const missing = () => {
    const exported = s.exported.read();
    return [...s.accepted].filter((id) => !exported.has(id)).length;
  };
  await waitWhileProgressing(
    () => missing() === 0,
    () => s.exported.rows,
    () => `round ${n}: every event answered 200 in the import folder (${missing()} missing, ${pendingExports(s.layout.stateDir)} export rows pending)`,
  );
  await waitUntil(
    () => {
      const taken = new Set(s.sandbox.requests().map((r) => r.externalId));
      return s.requests.every((id) => taken.has(id));
    },
    `round ${n}: the requests of every file dropped so far accepted by the platform`,
    RECOVERY_MS,
  );
}

/** A daemon on a small disk of its own; `rounds` run in it; then it stops cleanly and its store is whole. */
async function withDaemonOnSmallDisk(
  sandbox: Sandbox,
  random: Scenario['random'],
  figures: Figures,
  restarts: boolean,
  rounds: (s: Scenario) => Promise<void>,
): Promise<void> {
  await withTempDir(async (root) => {
    const layout = await prepareDaemon(root, sandbox.url, process.env.BATCH ? { export: { mode: 'batch', batchCron: '* * * * * *' } } : {});
    await withSmallDisk(layout.stateDir, DISK_BYTES, async () => {
      // A start is not what is tested here: the busy child and a loaded machine can make it slow.
      const startTimeoutMs = 180_000;
      await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir, startTimeoutMs }, async (daemon) => {
        const s: Scenario = {
          layout,
          sandbox,
          daemon,
          exported: watchExportedEvents(layout.importFolder),
          random,
          run: `FD${random.seed.toString(36).toUpperCase()}${random.between(0, 1e6).toString(36).toUpperCase()}`,
          accepted: new Set(),
          requests: [],
        };
        await daemon.start();
        await rounds(s);
        // The requests' acknowledgements too: nothing is left waiting in the store. (Looking at the
        // export rows alone once raced the last round's answers: their acknowledgements were
        // enqueued after the rows were found written, and the stop left them for the next start.)
        await waitUntil(
          () => unsettledRequests(layout.stateDir) === 0 && pendingExports(layout.stateDir) === 0,
          'every request settled and every export row written',
          RECOVERY_MS,
        );
        expect(await daemon.stop()).toBe(0);
        expect(daemon.unexpectedExits).toBe(0);

        // Each event answered 200 is exported, each request accepted once, and the store is whole.
        const exported = s.exported.read();
        expect([...s.accepted].filter((id) => !exported.has(id))).toEqual([]);
        const taken = sandbox.requests().map((r) => r.externalId);
        expect(taken.filter((id) => s.requests.includes(id)).sort()).toEqual([...s.requests].sort());
        const db = new Database(storePath(layout.stateDir), { readonly: true });
        try {
          expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        } finally {
          db.close();
        }
        expect(pendingExports(layout.stateDir)).toBe(0);
        const stdout = fs.readFileSync(path.join(layout.logDir, 'daemon.stdout.log'), 'utf8');
        // Each time the daemon held writes back for a full disk, it said so, and said when it let
        // them go. A daemon killed or stopped while holding never says it; the one started after
        // it says it again only if it meets the full disk itself. So: the last daemon to run, if it
        // held writes back, let them go before it stopped.
        const held = stdout.split('"msg":"the state disk is full').length - 1;
        const released = stdout.split('"msg":"space is back on the state disk').length - 1;
        if (!restarts) expect(released).toBe(held);
        else expect(released).toBeLessThanOrEqual(held);
        const lastRun = stdout.slice(stdout.lastIndexOf('"msg":"connector started'));
        // What the daemons said of the disk, and their starts and stops, for a failure's message.
        const diskLines = () =>
          stdout
            .split('\n')
            .flatMap((line) => {
              const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? '';
              const time = /"time":"([^"]*)"/.exec(line)?.[1] ?? '';
              return /^(the state disk is full|space is back|connector (started|stopp))/.test(msg) ? [`${time} ${msg}`] : [];
            })
            .join('\n');
        if (lastRun.includes('"msg":"the state disk is full')) {
          expect(lastRun.lastIndexOf('"msg":"space is back on the state disk'), diskLines()).toBeGreaterThan(
            lastRun.lastIndexOf('"msg":"the state disk is full'),
          );
        }
        figures.held += held;
        figures.accepted += s.accepted.size;
      });
    });
  });
}

function printFigures(label: string, seed: number, figures: Figures, started: number): void {
  console.info(
    `[reliability full-disk ${label}] seed=${seed} rounds=${figures.rounds} accepted=${figures.accepted} refusedWhileFull=${figures.refusedWhileFull} held=${figures.held} ` +
      `largestWalAtFill=${figures.largestWalAtFill} durationMs=${Date.now() - started}`,
  );
}

describe.skipIf(skip !== null)('reliability: the state disk fills and empties', () => {
  it('flows again within seconds of space coming back, 20 rounds under CPU load, with no restart', { timeout: 45 * 60_000 }, async () => {
    const random = createRandom();
    const started = Date.now();
    const figures: Figures = { rounds: 0, accepted: 0, refusedWhileFull: 0, held: 0, largestWalAtFill: 0 };
    await withCpuLoad(async () => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        for (let n = 0; n < Number(process.env.ROUNDS ?? 20); n += 1) {
          await withDaemonOnSmallDisk(sandbox, random, figures, false, async (s) => {
            await round(s, n, 'none', figures);
            figures.rounds += 1;
          });
        }
      });
    });
    printFigures('no restart', random.seed, figures, started);
  });

  it('flows again once space is back after a restart made while the disk was full, 6 rounds on one state', { timeout: 20 * 60_000 }, async () => {
    const random = createRandom();
    const started = Date.now();
    const figures: Figures = { rounds: 0, accepted: 0, refusedWhileFull: 0, held: 0, largestWalAtFill: 0 };
    await withCpuLoad(async () => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        await withDaemonOnSmallDisk(sandbox, random, figures, true, async (s) => {
          for (let n = 0; n < 6; n += 1) {
            await round(s, n, n % 2 === 0 ? 'kill' : 'stop', figures);
            figures.rounds += 1;
          }
        });
      });
    });
    printFigures('restart', random.seed, figures, started);
  });
});
