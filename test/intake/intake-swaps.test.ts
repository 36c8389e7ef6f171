/**
 * An inbox entry swapped by someone else while the intake takes it: for a symlink to a credential,
 * a FIFO or another file. The intake reads only the one descriptor it opened (never following, never
 * blocking), and checks that what it moved into processing/ is that file before mapping anything.
 */
import { execFileSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureInboxDirs } from '../../src/intake/intake-context.js';
import { storedName } from '../../src/intake/inbox-names.js';
import { sha256Hex } from '../../src/intake/submission-keys.js';
import { takeFile } from '../../src/intake/take-file.js';
import { claimFile, getFile } from '../../src/store/files.js';
import { waitUntil } from '../helpers/wait-until.js';
import { NO_WAIT, requestCsv, requestRow } from '../helpers/fixtures.js';
import { dropFile, onClaim, regularFilesText, releaseFifoReaders, replaceEntry, storeText, withIntake, type IntakeFixture } from '../helpers/with-intake.js';

const SECRET = 'CRED-SECRET-7f3a';

/** Each check runs with the inbox's metadata read synchronously (a local disk) and through the thread pool (a share): `shared/disk-calls.ts`. */
const INBOX_DISKS = ['local', 'network'] as const;

/** A file the service can read and the folder's users cannot: a valid request CSV carrying the secret everywhere a report or the store would quote it. */
async function plantCredential(dir: string): Promise<string> {
  const credential = path.join(dir, 'credential.csv');
  await fs.writeFile(credential, requestCsv([requestRow(SECRET, '1', { Покупатель: SECRET }), requestRow('R-9', '1', { ИНН: SECRET })]));
  return credential;
}

/** The secret reached no store row (so no platform call either: delivery sends only what is stored) and no file a user reads. */
async function expectSecretNowhere(f: IntakeFixture): Promise<void> {
  expect(storeText(f.db)).not.toContain(SECRET);
  expect(await regularFilesText(f.inbox)).not.toContain(SECRET);
  expect(JSON.stringify(f.logs())).not.toContain(SECRET);
}

const SWAPS = {
  'a symlink to a credential': (credential: string) => (file: string) => fsSync.symlinkSync(credential, file),
  'a FIFO': () => (file: string) => execFileSync('mkfifo', [file]),
  'another regular file': () => (file: string) => fsSync.writeFileSync(file, requestCsv([requestRow('R-EVIL')])),
} as const;

describe.each(INBOX_DISKS)('intake: an entry swapped between its hash and its move into processing/ (inbox disk: %s)', (inboxDisk) => {
  it.each(Object.keys(SWAPS) as (keyof typeof SWAPS)[])(
    'swapped for %s: detected by device and inode, rejected unread, and the intake goes on',
    async (swap) => {
      await withIntake({ ...NO_WAIT, inboxDisk }, async (f) => {
        const credential = await plantCredential(f.dir);
        await dropFile(f.inbox, 'a.csv', requestCsv([requestRow('R-1')]));
        onClaim(f.db, (name) => {
          if (name === 'a.csv') replaceEntry(path.join(f.inbox, 'a.csv'), SWAPS[swap](credential));
        });
        let started = false;
        const start = f.intake.start().then(() => (started = true));
        try {
          await waitUntil(() => started, 'the first scan to finish (a FIFO must not block it)');
        } finally {
          await releaseFifoReaders(f.inbox);
        }
        await start;

        const [row] = f.files();
        expect(row).toMatchObject({ originalName: 'a.csv', state: 'rejected', requestCount: 0, reportPending: 0 });
        expect(path.dirname(row!.currentPath!)).toBe(path.join(f.inbox, 'rejected'));
        const report = JSON.parse(await fs.readFile(`${row!.currentPath}.errors.json`, 'utf8'));
        expect(report.problems).toEqual([
          expect.objectContaining({ row: null, code: 'FILE_NOT_REGULAR', message: expect.stringContaining('was replaced while it was being taken') }),
        ]);
        // What was swapped in was moved aside as it is, never opened.
        const moved = await fs.lstat(row!.currentPath!);
        if (swap === 'a symlink to a credential') expect(moved.isSymbolicLink()).toBe(true);
        if (swap === 'a FIFO') expect(moved.isFIFO()).toBe(true);
        expect(f.submissions()).toEqual([]);
        expect(await f.list('processing')).toEqual([]);
        expect(f.logs()).toContainEqual(expect.objectContaining({ level: 'error', code: 'FILE_NOT_REGULAR', fileId: row!.id }));
        await expectSecretNowhere(f);

        await dropFile(f.inbox, 'b.csv', requestCsv([requestRow('R-2')]));
        await f.intake.scanNow();
        expect(f.submissions().map((s) => s.externalId)).toEqual(['R-2']);
      });
    },
  );

  it('the same content dropped again after such a rejection is taken', async () => {
    await withIntake({ ...NO_WAIT, inboxDisk }, async (f) => {
      const csv = requestCsv([requestRow('R-1')]);
      await dropFile(f.inbox, 'a.csv', csv);
      onClaim(f.db, (name) => {
        if (name === 'a.csv') replaceEntry(path.join(f.inbox, 'a.csv'), SWAPS['another regular file']());
      });
      await f.intake.start();
      expect(f.files().map((r) => r.state)).toEqual(['rejected']);
      await dropFile(f.inbox, 'again.csv', csv);
      await f.intake.scanNow();
      expect(f.files()).toEqual([expect.objectContaining({ originalName: 'again.csv', state: 'archived' })]);
      expect(f.submissions().map((s) => s.externalId)).toEqual(['R-1']);
    });
  });
});

describe.each(INBOX_DISKS)('intake: an entry swapped after the scan saw a regular file, before it is opened (inbox disk: %s)', (inboxDisk) => {
  it.each(['a symlink to a credential', 'a FIFO'] as const)('swapped for %s: not followed, not waited on, rejected as FILE_NOT_REGULAR', async (swap) => {
    await withIntake({ ...NO_WAIT, inboxDisk }, async (f) => {
      const credential = await plantCredential(f.dir);
      const ctx = f.context();
      await ensureInboxDirs(ctx.dirs);
      const file = await dropFile(f.inbox, 'a.csv', requestCsv([requestRow('R-1')]));
      const seen = await fs.lstat(file);
      replaceEntry(file, SWAPS[swap](credential));

      let outcome: string | undefined;
      const taking = takeFile(ctx, { path: file, name: 'a.csv', size: seen.size, mtimeMs: seen.mtimeMs }).then((o) => (outcome = o));
      try {
        await waitUntil(() => outcome !== undefined, 'takeFile to return (a FIFO must not block the open)');
      } finally {
        await releaseFifoReaders(f.inbox);
      }
      await taking;

      expect(outcome).toBe('rejected');
      const rejected = await f.list('rejected');
      expect(rejected).toEqual([
        expect.stringMatching(/^\d{8}-\d{6}-a\.csv$/),
        expect.stringMatching(/a\.csv\.errors\.csv$/),
        expect.stringMatching(/a\.csv\.errors\.json$/),
      ]);
      const report = JSON.parse(await fs.readFile(path.join(f.inbox, 'rejected', rejected[2]!), 'utf8'));
      const what = swap === 'a FIFO' ? 'a FIFO' : 'a symbolic link';
      expect(report.problems).toEqual([expect.objectContaining({ code: 'FILE_NOT_REGULAR', message: `a.csv is ${what}; it was not read` })]);
      expect(f.files()).toEqual([]);
      await expectSecretNowhere(f);
    });
  });
});

describe('intake: recovery of an entry in processing/ that is not a regular file', () => {
  it.each(['a symlink to a credential', 'a FIFO'] as const)('a claimed row whose entry is %s is rejected unread, not left stuck', async (swap) => {
    await withIntake(NO_WAIT, async (f) => {
      const credential = await plantCredential(f.dir);
      const processing = path.join(f.inbox, 'processing');
      await fs.mkdir(processing, { recursive: true });
      const content = requestCsv([requestRow('R-1')]);
      const claim = claimFile(
        f.db,
        { flow: 'requests', sha256: sha256Hex(content), originalName: 'c.csv', sizeBytes: content.length, now: Date.now() },
        (id, n) => path.join(processing, storedName(id, n)),
      );
      if (!claim.ok) throw new Error('expected a claim');
      // A crash after the claim; someone then puts this where the file should be.
      SWAPS[swap](credential)(claim.row.currentPath!);

      let report: unknown;
      const recovering = f.intake.recover().then((r) => (report = r));
      try {
        await waitUntil(() => report !== undefined, 'recovery to finish (a FIFO must not block it)');
      } finally {
        await releaseFifoReaders(f.inbox);
      }
      await recovering;

      expect(report).toMatchObject({ reprocessed: 1, failures: 0 });
      const row = getFile(f.db, claim.row.id)!;
      expect(row).toMatchObject({ state: 'rejected', requestCount: 0 });
      expect(JSON.parse(row.report!).problems).toEqual([expect.objectContaining({ code: 'FILE_NOT_REGULAR' })]);
      expect(await f.list('processing')).toEqual([]);
      await fs.access(`${row.currentPath}.errors.json`);
      expect(f.submissions()).toEqual([]);
      await expectSecretNowhere(f);
    });
  });
});

describe.each(INBOX_DISKS)('intake: a file written to after it was claimed (inbox disk: %s)', (inboxDisk) => {
  it.each([
    ['appended to', (h: fs.FileHandle) => h.appendFile(`R-9;7707083893;X\r\n`)],
    ['cut short', (h: fs.FileHandle) => h.truncate(40)],
  ] as const)('a file %s while it is mapped is rejected whole with FILE_CHANGED: what was read is not what was hashed', async (_what, change) => {
    await withIntake({ ...NO_WAIT, inboxDisk }, async (f) => {
      const file = await dropFile(f.inbox, 'a.csv', requestCsv([requestRow('R-1'), requestRow('R-2')]));
      const stat = await fs.stat(file);
      // A writer that still holds the file open (or a hard link to it): the rename into processing/ does not stop it.
      const writer = await fs.open(file, 'r+');
      try {
        const real = f.context().mapItems;
        let changed = false;
        const ctx = f.context({
          mapItems: async function* (input, label) {
            for await (const item of real(input, label)) {
              if (!changed) {
                changed = true;
                await change(writer);
              }
              yield item;
            }
          },
        });
        await ensureInboxDirs(ctx.dirs);
        expect(await takeFile(ctx, { path: file, name: 'a.csv', size: stat.size, mtimeMs: stat.mtimeMs })).toBe('processed');
      } finally {
        await writer.close();
      }
      expect(f.files()).toEqual([expect.objectContaining({ state: 'rejected', requestCount: 0 })]);
      expect(f.submissions()).toEqual([]);
      const report = await f.rejectedReport('a.csv');
      expect(report.problems).toEqual([
        expect.objectContaining({ row: null, code: 'FILE_CHANGED', message: expect.stringMatching(/^a\.csv: changed while it was read/) }),
      ]);
    });
  });
});

describe('intake: a name that disguises itself', () => {
  it('rejects a name with a bidi override unread, into a rejected/ name without it, with a report naming it escaped', async () => {
    await withIntake(NO_WAIT, async (f) => {
      const name = 'invoice\u202evsc.csv';
      await dropFile(f.inbox, name, requestCsv([requestRow('R-1')]));
      await f.intake.start();
      const rejected = await f.list('rejected');
      expect(rejected).toEqual([
        expect.stringMatching(/^\d{8}-\d{6}-invoice_vsc\.csv$/),
        expect.stringMatching(/-invoice_vsc\.csv\.errors\.csv$/),
        expect.stringMatching(/-invoice_vsc\.csv\.errors\.json$/),
      ]);
      expect(rejected.join('')).not.toMatch(/\u202e/);
      const report = await f.rejectedReport('invoice_vsc.csv');
      expect(report.file).toBe('invoice\\u202evsc.csv');
      expect(report.problems).toEqual([expect.objectContaining({ code: 'FILE_NOT_REGULAR', message: '"invoice\\u202evsc.csv" is not a safe file name' })]);
      expect(f.submissions()).toEqual([]);
    });
  });
});
