/**
 * Small files mapped on the mapping thread ahead of their turn (`src/mapping/map-thread.ts`, the
 * lookahead of `src/intake/scan-inbox.ts`) end exactly as files mapped on the event loop: the same
 * rows, requests, reports and moves; a mapping reloaded in between, or a thread that fails, leaves
 * the file to the loop.
 */
import fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { intakeContextOf } from '../../src/intake/intake-deps.js';
import { createMapThread, type MapThread, type Premapped } from '../../src/mapping/map-thread.js';
import type { MappedItem } from '../../src/mapping/types.js';
import { silentLogger } from '../../src/log.js';
import { openInputFile } from '../../src/shared/input-file.js';
import { NO_WAIT, requestCsv, requestMapping, requestRow } from '../helpers/fixtures.js';
import { specOf } from '../helpers/mapping-fixtures.js';
import { dropFile, withIntake, type IntakeFixture } from '../helpers/with-intake.js';

const threads: MapThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
});

const INVALID_INN = { ИНН: '7707083894' };

/** A storm's worth of kinds: valid files, a request sent again changed, a rejected file, a duplicate, a JSON file, a broken CSV. */
const FILES: [name: string, content: string][] = [
  ...Array.from({ length: 12 }, (_, i): [string, string] => [`f${String(i).padStart(2, '0')}.csv`, requestCsv([requestRow(`R-${i}`)])]),
  ['g-changed.csv', requestCsv([requestRow('R-3', '7')])],
  ['h-bad-inn.csv', requestCsv([requestRow('R-20', '1', INVALID_INN), requestRow('R-21')])],
  ['i-again.csv', requestCsv([requestRow('R-0')])],
  ['j-broken.csv', `${requestCsv([requestRow('R-30')])}"R-31;unclosed`],
  ['k-two.csv', requestCsv([requestRow('R-40'), requestRow('R-41'), requestRow('R-41', '2')])],
];

async function dropAll(f: IntakeFixture): Promise<void> {
  const start = Date.now() - 600_000;
  for (const [i, [name, content]] of FILES.entries()) {
    const file = await dropFile(f.inbox, name, content);
    const at = new Date(start + i * 1000);
    await fs.utimes(file, at, at);
  }
}

/** How the intake left everything: rows, requests, folders and reports (ids and times aside). */
async function outcome(f: IntakeFixture) {
  const files = f
    .files()
    .map((file) => ({ name: file.originalName, state: file.state, requests: file.requestCount, problems: file.problemCount, report: file.report }));
  const submissions = f.submissions().map((s) => ({ externalId: s.externalId, state: s.state, payload: s.payload, key: s.idempotencyKey }));
  const rejected = await Promise.all(
    FILES.map(([name]) => name)
      .filter((name) => files.find((file) => file.name === name)?.state === 'rejected')
      .map(async (name) => (await f.rejectedReport(name)).problems),
  );
  return { files, submissions, rejected, processing: await f.list('processing') };
}

/** Drop `FILES` into a new intake's inbox, start it (one scan takes them all) and say how they ended. */
const scanAll = (mapThread?: MapThread, inboxDisk: 'local' | 'network' = 'local') =>
  withIntake(
    { ...NO_WAIT, inboxDisk },
    async (f) => {
      await dropAll(f);
      await f.intake.start();
      return outcome(f);
    },
    mapThread ? { mapThread } : {},
  );

describe('intake: small files mapped on the mapping thread', () => {
  it('a scan of small files ends as it does with every file mapped on the loop, most of them mapped on the thread', async () => {
    const onLoop = await scanAll();
    const thread = createMapThread();
    threads.push(thread);
    expect(await scanAll(thread)).toEqual(onLoop);
    expect(onLoop.files.map((file) => file.state)).toContain('rejected');
    expect(onLoop.submissions.length).toBeGreaterThan(12);
    // The first file of the scan is mapped at its turn, the rest (hashed ahead) on the thread.
    expect(thread.mapped).toBe(FILES.length - 1);
  });

  it('on a share (one file hashed ahead, through the thread pool) the same', async () => {
    const thread = createMapThread();
    threads.push(thread);
    expect(await scanAll(thread, 'network')).toEqual(await scanAll(undefined, 'network'));
    expect(thread.mapped).toBe(FILES.length - 1);
  });

  it("a mapped-ahead file's items are taken only when the mapping is still the one it was mapped with, under the same name", async () => {
    await withIntake(NO_WAIT, async (f) => {
      const file = await dropFile(f.inbox, 'a.csv', requestCsv([requestRow('R-1')]));
      let current = specOf(requestMapping());
      const ctx = intakeContextOf({ db: f.db, flow: f.flow, sourceSystem: 'erp1c', mapping: current, logger: silentLogger }, () => current, silentLogger);
      const marker: MappedItem = { kind: 'withdrawal', withdrawal: { documentId: 'from the thread', row: 1 } };
      const premapped = (spec = current, fileLabel = 'a.csv'): Premapped => ({ spec, fileLabel, outcome: Promise.resolve({ items: [marker], faults: [] }) });
      const items = async (p: Premapped | undefined, label = 'a.csv') => {
        const handle = await openInputFile(file);
        try {
          const out: MappedItem[] = [];
          for await (const item of ctx.mapItems({ handle, name: 'a.csv' }, label, p)) out.push(item);
          return out.map((item) => item.kind);
        } finally {
          await handle.close();
        }
      };
      expect(await items(premapped())).toEqual(['withdrawal']);
      // Mapped under another name (the file was claimed under its earlier name): mapped again.
      expect(await items(premapped(current, 'b.csv'))).toEqual(['submission']);
      // A reload came between: mapped again with the new mapping.
      const old = current;
      current = specOf(requestMapping());
      expect(await items(premapped(old))).toEqual(['submission']);
      // The thread could not: mapped on the loop.
      expect(await items({ spec: current, fileLabel: 'a.csv', outcome: Promise.resolve(null) })).toEqual(['submission']);
    });
  });

  it('a thread that fails leaves every file to the loop: nothing is lost', async () => {
    const thread = createMapThread({ jobTimeoutMs: 0 });
    threads.push(thread);
    expect(await scanAll(thread)).toEqual(await scanAll());
    expect(thread.mapped).toBe(0);
  });
});
