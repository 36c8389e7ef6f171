/**
 * Crash: 200 requests in 8 files are dropped over time while the daemon is killed with SIGKILL at
 * random moments and started again on the same state. In the end the platform holds each request
 * exactly once, each externalId travelled under one Idempotency-Key, and every file is archived.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { expectEachOnceUnderOneKey, keysByExternalId, storeStates } from '../helpers/reliability/outcome.js';
import { createRandom } from '../helpers/reliability/random.js';
import { dropFile, externalIdsOf, requestFile } from '../helpers/reliability/request-files.js';
import { SECRETS, archivedFiles, filesIn, findSecrets, prepareDaemon, rejectedFiles } from '../helpers/reliability/setup.js';
import { waitUntil } from '../helpers/wait-until.js';

const REQUESTS = 200;
const FILES = 8;
const PER_FILE = REQUESTS / FILES;

describe('reliability: SIGKILL at random moments', () => {
  it('delivers 200 requests exactly once across 5-8 kills and restarts', async () => {
    const random = createRandom();
    const kills = random.between(5, 8);
    const run = `CR${random.seed.toString(36).toUpperCase()}`;
    const started = Date.now();
    await withTempDir(async (root) => {
      // A little latency on the platform keeps requests in flight when the kills land.
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken, faults: { create: { latencyMs: 80 } } }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url);
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();

          const dropping = (async () => {
            for (let f = 0; f < FILES; f += 1) {
              dropFile(layout.inbox, `requests-${String(f).padStart(2, '0')}.csv`, requestFile(run, f * PER_FILE, (f + 1) * PER_FILE));
              await sleep(random.between(300, 1_000));
            }
          })();
          const killed: { atMs: number; accepted: number }[] = [];
          for (let k = 0; k < kills; k += 1) {
            await sleep(random.between(100, 700));
            await daemon.kill();
            killed.push({ atMs: Date.now() - started, accepted: sandbox.requests().length });
            await daemon.start();
          }
          await dropping;

          await waitUntil(
            () => sandbox.requests().length >= REQUESTS && archivedFiles(layout.inbox).length + rejectedFiles(layout.inbox).length === FILES,
            'every request accepted and every file archived',
            { timeoutMs: 120_000, intervalMs: 100 },
          );
          expect(daemon.unexpectedExits).toBe(0);
          // The kills landed while requests were flowing, not before or after.
          expect(killed.some((k) => k.accepted > 0 && k.accepted < REQUESTS)).toBe(true);
          expect(await daemon.stop()).toBe(0);

          expectEachOnceUnderOneKey(sandbox, externalIdsOf(run, REQUESTS));
          expect(keysByExternalId(sandbox).size).toBe(REQUESTS);

          expect(archivedFiles(layout.inbox)).toHaveLength(FILES);
          expect(rejectedFiles(layout.inbox)).toEqual([]);
          expect(filesIn(path.join(layout.inbox, 'processing'))).toEqual([]);
          expect(filesIn(layout.inbox)).toEqual([]);
          expect(storeStates(layout.stateDir)).toEqual({ submissions: { accepted: REQUESTS }, files: { archived: FILES } });

          expect(findSecrets([root], Object.values(SECRETS), [layout.configFile])).toEqual([]);
          const calls = sandbox.calls().filter((c) => c.path.endsWith('/requests')).length;
          console.info(
            `[reliability crash] seed=${random.seed} kills=${killed.length} starts=${daemon.starts} requests=${REQUESTS} createCalls=${calls} ` +
              `killedAt=${JSON.stringify(killed)} durationMs=${Date.now() - started}`,
          );
        });
      });
    });
  });
});
