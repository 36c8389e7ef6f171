/**
 * Crash mid-file, for each format the intake reads from 1C: a CSV export, a workbook saved from a
 * report, a CommerceML document export. Each file is large enough to take a while to map and
 * record; the daemon is killed with SIGKILL while the file sits in `processing/` (being read, its
 * requests staged), then started again on the same state. In the end the platform holds each
 * request exactly once, under one Idempotency-Key, and every file is archived.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { expectEachOnceUnderOneKey, storeStates } from '../helpers/reliability/outcome.js';
import { createRandom } from '../helpers/reliability/random.js';
import { dropFile, externalIdsOf, requestCommerceMl, requestFile, requestWorkbook, WORKBOOK_MAPPING } from '../helpers/reliability/request-files.js';
import { SECRETS, archivedFiles, filesIn, prepareDaemon, rejectedFiles } from '../helpers/reliability/setup.js';

const FILES = 3;
const PER_FILE = 1_500;
const REQUESTS = FILES * PER_FILE;

interface Format {
  name: string;
  extension: string;
  mapping: (root: string) => string;
  file: (run: string, from: number, to: number) => Buffer | Promise<Buffer>;
}

const FORMATS: Format[] = [
  { name: 'CSV', extension: 'csv', mapping: () => path.resolve('config/mappings/1c-requests.yaml'), file: requestFile },
  {
    name: 'XLSX',
    extension: 'xlsx',
    mapping: (root) => {
      const file = path.join(root, 'workbook-requests.yaml');
      fs.writeFileSync(file, WORKBOOK_MAPPING);
      return file;
    },
    file: requestWorkbook,
  },
  { name: 'CommerceML XML', extension: 'xml', mapping: () => path.resolve('config/mappings/commerceml-orders.yaml'), file: requestCommerceMl },
];

describe('reliability: SIGKILL while a file is being read', () => {
  it.each(FORMATS)('$name: each file killed mid-read once, every request delivered exactly once', async (format) => {
    const random = createRandom();
    const run = `MF${format.extension.toUpperCase()}${random.seed.toString(36).toUpperCase()}`;
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url, {
          mapping: format.mapping(root),
          intake: { stableForMs: 0, minAgeMs: 0, rescanIntervalMs: 200 },
        });
        const processing = path.join(layout.inbox, 'processing');
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          let killedMidFile = 0;
          for (let f = 0; f < FILES; f += 1) {
            const name = `requests-${f}.${format.extension}`;
            dropFile(layout.inbox, name, await format.file(run, f * PER_FILE, (f + 1) * PER_FILE));
            // Kill while the file is being read: it is in processing/ from its claim until its one deciding transaction.
            const taken = () => filesIn(processing).some((entry) => entry.endsWith(name));
            await waitUntil(() => taken() || archivedFiles(layout.inbox).some((entry) => entry.endsWith(name)), `${name} taken`, {
              timeoutMs: 30_000,
              intervalMs: 2,
            });
            await sleep(random.between(0, 40));
            if (taken()) killedMidFile += 1;
            await daemon.kill();
            await daemon.start();
          }
          await waitUntil(
            () => sandbox.requests().length >= REQUESTS && archivedFiles(layout.inbox).length + rejectedFiles(layout.inbox).length === FILES,
            'every request accepted and every file archived',
            { timeoutMs: 180_000, intervalMs: 200 },
          );
          expect(daemon.unexpectedExits).toBe(0);
          expect(killedMidFile, 'at least one kill landed while a file was still being read').toBeGreaterThan(0);
          expect(await daemon.stop()).toBe(0);

          expectEachOnceUnderOneKey(sandbox, externalIdsOf(run, REQUESTS));
          expect(archivedFiles(layout.inbox)).toHaveLength(FILES);
          expect(rejectedFiles(layout.inbox)).toEqual([]);
          expect(filesIn(processing)).toEqual([]);
          expect(storeStates(layout.stateDir)).toEqual({ submissions: { accepted: REQUESTS }, files: { archived: FILES } });
          console.info(`[reliability mid-file ${format.name}] seed=${random.seed} killedMidFile=${killedMidFile}/${FILES} starts=${daemon.starts}`);
        });
      });
    });
  });
});
