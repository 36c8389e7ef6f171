/**
 * Faults: the platform fails 30 % of create calls (500, 503 and 429 with Retry-After, a dropped
 * connection before processing, a dropped connection AFTER the request was created), and answers
 * some calls only after 2 s. Every request is still accepted exactly once, under one key.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { OperationFaultsInput } from '../../src/sandbox/index.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { expectEachOnceUnderOneKey, storeStates } from '../helpers/reliability/outcome.js';
import { createRandom } from '../helpers/reliability/random.js';
import { dropFile, externalIdsOf, requestFile } from '../helpers/reliability/request-files.js';
import { SECRETS, archivedFiles, filesIn, findSecrets, prepareDaemon } from '../helpers/reliability/setup.js';
import { waitUntil } from '../helpers/wait-until.js';

const REQUESTS = 200;
const FILES = 4;
const PER_FILE = REQUESTS / FILES;

/** 30 % in all: 8 % 500, 6 % 503, 6 % 429, 5 % dropped before, 5 % dropped after the commit. */
const FAULTS: OperationFaultsInput = { status500: 0.08, status503: 0.06, status429: 0.06, drop: 0.05, dropAfterCommit: 0.05, retryAfterSeconds: 1 };

describe('reliability: a platform failing 30 % of calls', () => {
  it('accepts every request exactly once through 500, 503, 429, drops, drops after commit and 2 s latency', async () => {
    const random = createRandom();
    const run = `FT${random.seed.toString(36).toUpperCase()}`;
    const started = Date.now();
    await withTempDir(async (root) => {
      await withSandbox({ token: SECRETS.token, supplierToken: SECRETS.supplierToken, seed: random.seed, faults: { create: FAULTS } }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url);
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          for (let f = 0; f < FILES; f += 1) {
            dropFile(layout.inbox, `faults-${f}.csv`, requestFile(run, f * PER_FILE, (f + 1) * PER_FILE));
          }
          // "Some" calls are slow: 2 s of latency in alternate windows, bounded in count.
          let slowWindows = 0;
          for (let w = 0; w < 40 && sandbox.requests().length < REQUESTS; w += 1) {
            const slow = w % 2 === 0;
            if (slow) slowWindows += 1;
            sandbox.setFaults({ create: { ...FAULTS, latencyMs: slow ? 2_000 : 0 } });
            await sleep(slow ? 1_000 : 1_500);
          }
          sandbox.setFaults({ create: FAULTS });

          await waitUntil(() => sandbox.requests().length >= REQUESTS && archivedFiles(layout.inbox).length === FILES, 'every request accepted', {
            timeoutMs: 120_000,
            intervalMs: 100,
          });
          // Let any retry still in flight land (it must be a replay, not a second request).
          await waitUntil(() => storeStates(layout.stateDir).submissions.accepted === REQUESTS, 'the daemon to record every acceptance', {
            timeoutMs: 60_000,
            intervalMs: 200,
          });
          expect(await daemon.stop()).toBe(0);
          expect(daemon.unexpectedExits).toBe(0);

          expectEachOnceUnderOneKey(sandbox, externalIdsOf(run, REQUESTS));
          expect(storeStates(layout.stateDir)).toEqual({ submissions: { accepted: REQUESTS }, files: { archived: FILES } });
          expect(filesIn(path.join(layout.inbox, 'processing'))).toEqual([]);

          // Every kind of fault did happen (otherwise the test proves nothing).
          const outcomes = new Map<string, number>();
          for (const call of sandbox.calls()) outcomes.set(String(call.status), (outcomes.get(String(call.status)) ?? 0) + 1);
          for (const kind of ['500', '503', '429', 'dropped', 'dropped-after-commit'])
            expect(outcomes.get(kind) ?? 0, `calls answered ${kind}`).toBeGreaterThan(0);
          const replayed = sandbox.calls().filter((c) => c.replayed).length;

          expect(findSecrets([root], Object.values(SECRETS), [layout.configFile])).toEqual([]);
          console.info(
            `[reliability faults] seed=${random.seed} requests=${REQUESTS} calls=${sandbox.calls().length} replayed=${replayed} slowWindows=${slowWindows} ` +
              `outcomes=${JSON.stringify(Object.fromEntries(outcomes))} durationMs=${Date.now() - started}`,
          );
        });
      });
    });
  });
});
