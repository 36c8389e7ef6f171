/**
 * `withIntake(options, fn)`: a real inbox folder, a real SQLite store and the real mapper with a
 * small requests mapping, all in a temp folder; the intake is stopped and the store closed after.
 * Fixture builders make one valid request CSV that tests break in exactly one way.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { flowSchema, type FlowConfig, type FlowIntakeConfig } from '../../src/config/flow-schema.js';
import { createIntake, type Intake } from '../../src/intake/index.js';
import { createLogger, silentLogger } from '../../src/log.js';
import { pino } from 'pino';
import { loadMappingSpec } from '../../src/mapping/index.js';
import { listFiles, type FileRow } from '../../src/store/files.js';
import { openStore, storePath, type Db } from '../../src/store/open-store.js';
import { listSubmissionsOfFlow, type SubmissionRow } from '../../src/store/submissions.js';
import { withTempDir } from '../helpers/temp-dir.js';

export const SOURCE_SYSTEM = 'erp1c';

export const REQUESTS_MAPPING_YAML = `
kind: requests
csv: { encoding: utf-8, delimiter: ";" }
groupBy: ext
request:
  externalId: { column: ext }
  customer.inn: { column: inn }
  customer.name: { column: customer }
  contact.name: { column: contact }
  contact.phone: { column: phone }
  delivery.city: { column: city }
  delivery.address: { column: address }
  delivery.desiredDate: { column: date }
items:
  lineId: { column: line }
  name: { column: item }
  quantity: { column: qty, integer: true }
  unit: { column: unit }
`;

const COLUMNS = ['ext', 'inn', 'customer', 'contact', 'phone', 'city', 'address', 'date', 'line', 'item', 'qty', 'unit'] as const;
export type RequestRow = Record<(typeof COLUMNS)[number], string>;

/** One valid request line; override a field to break it in one way. */
export function requestRow(overrides: Partial<RequestRow> = {}): RequestRow {
  return {
    ext: 'R-1',
    inn: '7707083893',
    customer: 'ООО Ромашка',
    contact: 'Иванов И.',
    phone: '+7 495 000-00-00',
    city: 'Москва',
    address: 'ул. Ленина, 1',
    date: '2099-01-15',
    line: '1',
    item: 'Болт М8',
    qty: '10',
    unit: 'шт',
    ...overrides,
  };
}

export function requestCsv(rows: readonly RequestRow[]): string {
  return [COLUMNS.join(';'), ...rows.map((r) => COLUMNS.map((c) => r[c]).join(';'))].join('\n') + '\n';
}

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
  files(): FileRow[];
  submissions(): SubmissionRow[];
  /** Names in a sub-folder of the inbox ('' for the inbox itself), recursively, sorted. */
  list(sub?: string): Promise<string[]>;
}

/** Fast stability settings for tests; each test overrides what it is about. */
export const FAST_INTAKE: Partial<FlowIntakeConfig> = { stableForMs: 150, minAgeMs: 50, rescanIntervalMs: 100 };

export async function withIntake<T>(intakeOptions: Partial<FlowIntakeConfig>, fn: (f: IntakeFixture) => Promise<T>): Promise<T> {
  return withTempDir(async (dir) => {
    const inbox = path.join(dir, 'inbox');
    await fs.mkdir(inbox, { recursive: true });
    const mappingFile = path.join(dir, 'requests.yaml');
    await fs.writeFile(mappingFile, REQUESTS_MAPPING_YAML);
    const spec = loadMappingSpec(mappingFile);
    const flow = flowSchema.parse({
      name: 'requests',
      kind: 'requests',
      inbox,
      mapping: mappingFile,
      results: path.join(dir, 'results'),
      intake: { ...FAST_INTAKE, ...intakeOptions },
    });
    const recordedCounts: number[] = [];
    const opened: { db: Db; intake: Intake }[] = [];
    const open = () => {
      const db = openStore(storePath(path.join(dir, 'state')));
      const intake = createIntake({ db, flow, sourceSystem: SOURCE_SYSTEM, getMapping: () => spec, logger: process.env.INTAKE_DEBUG ? createLogger({ level: 'debug', destination: pino.destination(2) }) : silentLogger, onRecorded: (n) => recordedCounts.push(n) });
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
