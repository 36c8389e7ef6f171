/**
 * A storm of small files on a local disk, in the daemon as it runs: the inbox's calls are
 * synchronous there (`shared/disk-calls.ts`), so nothing in a scan waits by itself, and the scan
 * gives the event loop a turn every `SCAN_SLICE_MS` of its work (`shared/turn-slicer.ts`). Without
 * it, the listener, delivery and the console were answered only once the whole storm was taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { FAST_INTAKE, REQUESTS_MAPPING_YAML, requestCsv, requestRow } from '../helpers/fixtures.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { FAST_DELIVERY, withDaemon, writeConfig } from '../helpers/with-daemon.js';

const FILES = 1_500;

describe('a storm of small files on a local disk', () => {
  it('is taken while the event loop keeps turning: other work sees it in progress, not only before and after', async () => {
    await withTempDir(async (dir) => {
      fs.writeFileSync(path.join(dir, 'requests.yaml'), REQUESTS_MAPPING_YAML);
      const config = writeConfig(
        dir,
        `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: turns-token-123, sourceSystem: erp-test }
flows:
  - name: requests
    kind: requests
    inbox: {dir}/inbox
    mapping: {dir}/requests.yaml
    results: {dir}/import
    intake: ${JSON.stringify({ ...FAST_INTAKE, rejectPastDates: false, inboxDisk: 'local' })}
${FAST_DELIVERY}
metrics: { enabled: false }
sandbox: { enabled: true, port: 0, demo: false }
`,
      );
      let taken = 0;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n')) if (line.includes('"msg":"file taken"')) taken += 1;
          done();
        },
      });
      // Every file is written aside first, then renamed in: the storm arrives at once.
      const staging = path.join(dir, 'staging');
      fs.mkdirSync(staging);
      for (let i = 0; i < FILES; i += 1) fs.writeFileSync(path.join(staging, `r-${i}.csv`), requestCsv([requestRow(`R-${i}`)]));
      const seen = new Set<number>();
      await withDaemon(
        config,
        async () => {
          for (let i = 0; i < FILES; i += 1) fs.renameSync(path.join(staging, `r-${i}.csv`), path.join(dir, 'inbox', `r-${i}.csv`));
          // What another task of the event loop sees of the storm, a turn at a time.
          let watching = true;
          const watch = () => {
            seen.add(taken);
            if (watching) setImmediate(watch);
          };
          setImmediate(watch);
          try {
            await waitUntil(() => taken === FILES, 'every file taken', 60_000);
          } finally {
            watching = false;
          }
        },
        { logger: createLogger({ level: 'info', destination: sink }) },
      );
      // Seen part-way many times: turns came all through the storm, not once the scan was over
      // (about 500 times here; never without the turns). One every 100 files leaves room for a
      // machine many times as fast.
      const partWay = [...seen].filter((count) => count > 0 && count < FILES);
      expect(partWay.length).toBeGreaterThan(FILES / 100);
    });
  });
});
