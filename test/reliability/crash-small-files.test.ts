/**
 * SIGKILL while a scan's small files wait in `processing/` for their group's commit
 * (`src/intake/recording-group.ts`) or for their move: a 1C job's one-request files, dropped many
 * at once. Each batch is killed as soon as several of its files sit in `processing/`, then the
 * daemon starts again on the same state and recovery maps and records what was not committed. In
 * the end the platform holds each request exactly once, under one Idempotency-Key, and every file
 * is archived: none is lost with its group, none recorded twice, none refused as unreadable.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { expectEachOnceUnderOneKey, storeStates } from '../helpers/reliability/outcome.js';
import { createRandom } from '../helpers/reliability/random.js';
import { dropFile, externalIdsOf, requestFile } from '../helpers/reliability/request-files.js';
import { SECRETS, archivedFiles, filesIn, prepareDaemon, rejectedFiles } from '../helpers/reliability/setup.js';

const BATCHES = 3;
const PER_BATCH = 60;
const FILES = BATCHES * PER_BATCH;

describe('reliability: SIGKILL while small files wait for their group', () => {
  it('every one-request file of each killed batch is archived and its request delivered exactly once', async () => {
    const random = createRandom();
    const run = `SF${random.seed.toString(36).toUpperCase()}`;
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url, {
          mapping: path.resolve('config/mappings/1c-requests.yaml'),
          intake: { stableForMs: 0, minAgeMs: 0, rescanIntervalMs: 200 },
        });
        const processing = path.join(layout.inbox, 'processing');
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          let killedWithSeveral = 0;
          let killedWithGroup = 0;
          for (let b = 0; b < BATCHES; b += 1) {
            for (let i = 0; i < PER_BATCH; i += 1) {
              const n = b * PER_BATCH + i;
              dropFile(layout.inbox, `request-${String(n).padStart(4, '0')}.csv`, requestFile(run, n, n + 1));
            }
            // Several files in processing/ at once: claimed, and waiting for their group's commit or their move.
            await waitUntil(() => filesIn(processing).length >= 2 || archivedFiles(layout.inbox).length >= (b + 1) * PER_BATCH, `batch ${b} taken`, {
              timeoutMs: 30_000,
              intervalMs: 1,
            });
            await sleep(random.between(0, 5));
            if (filesIn(processing).length >= 2) killedWithSeveral += 1;
            await daemon.kill();
            // Claimed, not recorded: what the group had not committed when the daemon died (the store as the kill left it).
            const unrecorded = storeStates(layout.stateDir).files.processing ?? 0;
            if (unrecorded >= 2) killedWithGroup += 1;
            await daemon.start();
            // Recovery and the batch's last files done before the next kill: one kill per file's recording at most.
            await waitUntil(() => archivedFiles(layout.inbox).length + rejectedFiles(layout.inbox).length >= (b + 1) * PER_BATCH, `batch ${b} archived`, {
              timeoutMs: 60_000,
              intervalMs: 20,
            });
          }
          await waitUntil(() => sandbox.requests().length >= FILES, 'every request accepted', { timeoutMs: 120_000, intervalMs: 100 });
          expect(daemon.unexpectedExits).toBe(0);
          expect(killedWithGroup, 'at least one kill landed while several claimed files were not recorded yet').toBeGreaterThan(0);
          expect(await daemon.stop()).toBe(0);

          expectEachOnceUnderOneKey(sandbox, externalIdsOf(run, FILES));
          expect(rejectedFiles(layout.inbox)).toEqual([]);
          expect(archivedFiles(layout.inbox)).toHaveLength(FILES);
          expect(filesIn(processing)).toEqual([]);
          expect(storeStates(layout.stateDir)).toEqual({ submissions: { accepted: FILES }, files: { archived: FILES } });
          console.info(
            `[reliability small files] seed=${random.seed} killedWithSeveral=${killedWithSeveral}/${BATCHES} killedWithGroup=${killedWithGroup}/${BATCHES} starts=${daemon.starts}`,
          );
        });
      });
    });
  });
});
