/**
 * The operator's "take again": a rejected file goes back into the inbox (never over another entry,
 * never following a link planted in rejected/), its old reports go, and the intake takes it again
 * under the same row once its mapping is fixed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMappingSpec } from '../../src/mapping/index.js';
import { isConnectorError } from '../../src/errors.js';
import { retakeRejectedFile } from '../../src/intake/retake-file.js';
import { getFile } from '../../src/store/files.js';
import { waitUntil } from '../helpers/wait-until.js';
import { REQUESTS_MAPPING_YAML, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, withIntake, type IntakeFixture } from '../helpers/with-intake.js';

/** A file the mapping rejects whole: it has no `Кол-во` (quantity) column. */
const withoutQty = () =>
  requestCsv([requestRow()])
    .split('\r\n')
    .map((line) => line.split(';').slice(0, 11).concat(line.split(';').slice(12)).join(';'))
    .join('\r\n');

async function rejectedFile(f: IntakeFixture, name = 'bad.csv'): Promise<number> {
  await dropFile(f.inbox, name, withoutQty());
  await f.intake.start();
  await waitUntil(() => f.files().some((row) => row.state === 'rejected' && row.reportPending === 0), 'the file rejected with its report');
  return f.files()[0]!.id;
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(isConnectorError(error, 'CONSOLE_ACTION_FAILED'), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected CONSOLE_ACTION_FAILED');
}

describe('taking a rejected file again', () => {
  it('moves it back into the inbox, drops its old reports, and takes it under the same row once the mapping is fixed', async () => {
    await withIntake({}, async (f) => {
      const id = await rejectedFile(f);
      expect(await f.list('rejected')).toEqual([`${id}-bad.csv`, `${id}-bad.csv.errors.csv`, `${id}-bad.csv.errors.json`]);
      const fixed = path.join(f.dir, 'fixed.yaml');
      await fs.writeFile(fixed, REQUESTS_MAPPING_YAML.replace(/quantity:\n(\s+)column: Кол-во\n\s+integer: true/, 'quantity:\n$1const: 1'));
      f.intake.reload(loadMappingSpec(fixed));

      expect(await f.intake.retake(id)).toEqual({ fileId: id, inboxName: 'bad.csv' });
      expect(await f.list('rejected')).toEqual([]);
      await waitUntil(() => getFile(f.db, id)?.state === 'archived', 'the same row archived');
      expect(f.files()).toHaveLength(1);
      expect(f.submissions().map((s) => [s.externalId, s.fileId])).toEqual([['R-1', id]]);
    });
  });

  it('never replaces an inbox entry: the file takes the next free name', async () => {
    await withIntake({}, async (f) => {
      const id = await rejectedFile(f);
      await f.intake.stop();
      await dropFile(f.inbox, 'bad.csv', 'someone else’s file');
      await dropFile(f.inbox, 'bad-2.csv', 'and another');
      expect(await retakeRejectedFile(f.context(), id)).toEqual({ fileId: id, inboxName: 'bad-3.csv' });
      expect(await fs.readFile(path.join(f.inbox, 'bad.csv'), 'utf8')).toBe('someone else’s file');
      expect(await fs.readFile(path.join(f.inbox, 'bad-3.csv'), 'utf8')).toBe(withoutQty());
    });
  });

  it('writes the done-marker when the flow waits for one', async () => {
    await withIntake({ doneMarker: 'done' }, async (f) => {
      await fs.writeFile(path.join(f.inbox, 'bad.csv.done'), '');
      const id = await rejectedFile(f);
      await f.intake.stop();
      await retakeRejectedFile(f.context(), id);
      expect((await f.list()).filter((n) => !n.includes('/'))).toEqual(['bad.csv', 'bad.csv.done']);
    });
  });

  it('refuses a link planted in rejected/, a file that left, and a file that is not rejected', async () => {
    await withIntake({}, async (f) => {
      const id = await rejectedFile(f);
      await f.intake.stop();
      const stored = getFile(f.db, id)!.currentPath!;
      const secret = path.join(f.dir, 'secret.txt');
      await fs.writeFile(secret, 'not for the inbox');
      await fs.rm(stored);
      await fs.symlink(secret, stored);
      expect(await failure(retakeRejectedFile(f.context(), id))).toMatch(/is not a regular file any more; it was not moved/);
      expect((await f.list()).filter((n) => !n.includes('/'))).toEqual([]);

      await fs.rm(stored);
      expect(await failure(retakeRejectedFile(f.context(), id))).toMatch(/is no longer in rejected\//);
      expect(await failure(retakeRejectedFile(f.context(), id + 100))).toMatch(/is not a file of flow requests/);
    });
    await withIntake({}, async (f) => {
      await dropFile(f.inbox, 'good.csv', requestCsv([requestRow()]));
      await f.intake.start();
      await waitUntil(() => f.files().some((row) => row.state === 'archived'), 'archived');
      expect(await failure(f.intake.retake(f.files()[0]!.id))).toMatch(/is archived, not rejected/);
    });
  });
});
