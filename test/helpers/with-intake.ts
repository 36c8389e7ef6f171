/**
 * `withIntake(options, fn)`: a real inbox folder, a real SQLite store and the real mapper with a
 * small requests mapping, all in a temp folder; the intake is stopped and the store closed after.
 * The request rows and the mapping are the shared fixtures of `test/helpers/fixtures.ts`.
 */
import type { MapThread } from '../../src/mapping/map-thread.js';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { flowSchema, type FlowConfig, type FlowIntakeConfig } from '../../src/config/flow-schema.js';
import { createIntake, type Intake } from '../../src/intake/index.js';
import { inboxDirs, type IntakeContext } from '../../src/intake/intake-context.js';
import { createLogger, type Logger } from '../../src/log.js';
import { pino } from 'pino';
import { loadMappingSpec, mapFile } from '../../src/mapping/index.js';
import { claimFile, listFiles, type FileRecord } from '../../src/store/files.js';
import { storedName } from '../../src/intake/inbox-names.js';
import { sha256Hex } from '../../src/intake/submission-keys.js';
import { openStore, storePath, type Db } from '../../src/store/open-store.js';
import { listSubmissionsOfFlow, type Submission } from '../../src/store/submissions.js';
import { withTempDir } from './temp-dir.js';
import { FAST_INTAKE, REQUESTS_MAPPING_YAML } from './fixtures.js';
import { LOCAL_DISK, POOLED_DISK } from '../../src/shared/disk-calls.js';
import { alreadyDurable, systemClock, type Clock, type FileReport } from '../../src/shared/types.js';

export const SOURCE_SYSTEM = 'erp1c';

export interface IntakeFixture {
  dir: string;
  inbox: string;
  flow: FlowConfig;
  db: Db;
  intake: Intake;
  /** Counts passed to `onRecorded`. */
  recordedCounts: number[];
  /** Make a second intake over the same folders and store (after a simulated crash). */
  reopen(): { db: Db; intake: Intake };
  files(): FileRecord[];
  submissions(): Submission[];
  /** Names in a sub-folder of the inbox ('' for the inbox itself), recursively, sorted. */
  list(sub?: string): Promise<string[]>;
  /** The `.errors.json` report in `rejected/` (the first one, or the first of a file whose name ends with `fileEnd`). */
  rejectedReport(fileEnd?: string): Promise<FileReport>;
  /** Every log line so far (parsed JSON), of every intake opened. */
  logs(): Record<string, unknown>[];
  /** The context the intake stages run with, to drive one stage directly; `clock` may be fixed. */
  context(overrides?: Partial<IntakeContext>): IntakeContext;
}

export interface IntakeSetup {
  /** The clock the intake runs on; a `manualClock()` makes stability waits the test's to decide. Default: the system's. */
  clock?: Clock;
  /** A mapping file to use instead of the shared requests mapping (a shipped one, by its path). */
  mappingFile?: string;
  /** More keys of the flow (`enterpriseData`). */
  flow?: Record<string, unknown>;
  /** The mapping thread the intakes hand small files to, as the daemon's do (`src/daemon/intakes.ts`). Default: none, every file mapped on the loop. */
  mapThread?: MapThread;
}

export async function withIntake<T>(intakeOptions: Partial<FlowIntakeConfig>, fn: (f: IntakeFixture) => Promise<T>, setup: IntakeSetup = {}): Promise<T> {
  const clock = setup.clock ?? systemClock;
  return withTempDir(async (dir) => {
    const inbox = path.join(dir, 'inbox');
    await fs.mkdir(inbox, { recursive: true });
    const mappingFile = setup.mappingFile ?? path.join(dir, 'requests.yaml');
    if (setup.mappingFile === undefined) await fs.writeFile(mappingFile, REQUESTS_MAPPING_YAML);
    const spec = loadMappingSpec(mappingFile);
    const flow = flowSchema.parse({
      name: 'requests',
      kind: 'requests',
      inbox,
      mapping: mappingFile,
      results: path.join(dir, 'results'),
      intake: { ...FAST_INTAKE, ...intakeOptions },
      ...setup.flow,
    });
    const recordedCounts: number[] = [];
    const opened: { db: Db; intake: Intake }[] = [];
    const lines: Record<string, unknown>[] = [];
    const logger = process.env.INTAKE_DEBUG ? createLogger({ level: 'debug', destination: pino.destination(2) }) : capturingLogger(lines);
    const open = () => {
      const db = openStore(storePath(path.join(dir, 'state')));
      const intake = createIntake({
        db,
        flow,
        sourceSystem: SOURCE_SYSTEM,
        mapping: spec,
        logger,
        clock,
        onRecorded: (n) => recordedCounts.push(n),
        ...(setup.mapThread ? { mapThread: setup.mapThread } : {}),
      });
      opened.push({ db, intake });
      return { db, intake };
    };
    const first = open();
    const fixture: IntakeFixture = {
      dir,
      inbox,
      flow,
      db: first.db,
      intake: first.intake,
      recordedCounts,
      reopen: open,
      files: () => listFiles(opened.at(-1)!.db, flow.name),
      submissions: () => listSubmissionsOfFlow(opened.at(-1)!.db, flow.name),
      list: (sub = '') => listRecursively(path.join(inbox, sub)),
      async rejectedReport(fileEnd = '') {
        const names = await listRecursively(path.join(inbox, 'rejected'));
        const name = names.find((n) => n.endsWith(`${fileEnd}.errors.json`));
        if (!name) throw new Error(`no report of ${fileEnd || 'any file'} in rejected/: ${names.join(', ')}`);
        return JSON.parse(await fs.readFile(path.join(inbox, 'rejected', name), 'utf8')) as FileReport;
      },
      logs: () => lines,
      context: (overrides = {}) => ({
        db: opened.at(-1)!.db,
        flow,
        sourceSystem: SOURCE_SYSTEM,
        dirs: inboxDirs(inbox),
        mapItems: (input, fileLabel) =>
          mapFile(input, spec, { now: new Date(clock()), rejectPastDates: true, fileLabel, archivePassword: flow.enterpriseData?.password }),
        logger,
        clock,
        // A test's inbox is in a temporary folder on a local disk: `auto` is `local` there, as `start()` finds.
        disk: flow.intake.inboxDisk === 'network' ? POOLED_DISK : LOCAL_DISK,
        durable: alreadyDurable,
        ...overrides,
      }),
    };
    try {
      return await fn(fixture);
    } finally {
      for (const o of opened.reverse()) {
        await o.intake.stop();
        if (o.db.open) o.db.close();
      }
    }
  });
}

function capturingLogger(lines: Record<string, unknown>[]): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return createLogger({ level: 'debug', destination: sink });
}

async function listRecursively(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** Write a whole file into the inbox at once. */
export async function dropFile(inbox: string, name: string, content: string): Promise<string> {
  const file = path.join(inbox, name);
  await fs.writeFile(file, content);
  return file;
}

/**
 * Run `fn(originalName)` right after a file is claimed, inside the claim's INSERT: between the
 * hash of the file and its rename into processing/, the window a hostile folder user aims at. A
 * temporary trigger on this connection calls back into JS; nothing in the intake is faked.
 */
export function onClaim(db: Db, fn: (originalName: string) => void): void {
  db.function('test_on_claim', (name: unknown) => {
    fn(String(name));
    return null;
  });
  db.exec(`CREATE TEMP TRIGGER test_on_claim AFTER INSERT ON files BEGIN SELECT test_on_claim(NEW.original_name); END`);
}

/** Replace `file` by `make(file)` (a symlink, a FIFO, another file), the way an attacker would. */
export function replaceEntry(file: string, make: (file: string) => void): void {
  fsSync.rmSync(file, { force: true });
  make(file);
}

/** Every row of every table of the store, as text: to check that a value reached none of them. */
export function storeText(db: Db): string {
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
  return tables.map(({ name }) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
}

/** The text of every regular file under `dir`, never following a symlink or opening a FIFO. */
export async function regularFilesText(dir: string): Promise<string> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const texts: string[] = [];
  for (const e of entries) {
    const p = path.join(e.parentPath, e.name);
    if ((await fs.lstat(p)).isFile()) texts.push(await fs.readFile(p, 'utf8'));
  }
  return texts.join('\n');
}

/**
 * Let any reader stuck opening a FIFO under `dir` go on (open for writing without blocking, then
 * close: the reader sees an empty file). Used in `finally` so that a test of the old, blocking
 * behaviour fails instead of hanging its worker.
 */
export async function releaseFifoReaders(dir: string): Promise<void> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFIFO()) continue;
    try {
      fsSync.closeSync(fsSync.openSync(path.join(e.parentPath, e.name), fsSync.constants.O_WRONLY | fsSync.constants.O_NONBLOCK));
    } catch {
      // ENXIO: no reader is waiting.
    }
  }
}

/**
 * A file claimed and written into processing/ the way `takeFile` leaves it, with nothing recorded
 * yet: what a crash between the claim and the recording leaves behind.
 */
export async function claimIntoProcessing(f: { db: Db; inbox: string }, name: string, content: string): Promise<FileRecord> {
  const processing = path.join(f.inbox, 'processing');
  await fs.mkdir(processing, { recursive: true });
  const claim = claimFile(
    f.db,
    { flow: 'requests', sha256: sha256Hex(content), originalName: name, sizeBytes: Buffer.byteLength(content), now: Date.now() },
    (id, n) => path.join(processing, storedName(id, n)),
  );
  if (!claim.ok) throw new Error('expected a claim');
  await fs.writeFile(claim.row.currentPath!, content);
  return claim.row;
}
