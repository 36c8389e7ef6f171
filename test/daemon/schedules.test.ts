/** The daemon's cron jobs: which run, on which line of the config, and what each one wakes. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scheduledJobs } from '../../src/daemon/schedules.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { withStore } from '../helpers/store.js';
import { REQUESTS_FLOW, writeConfig } from '../helpers/with-daemon.js';

const BASE = `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:9", token: t0ken-for-schedule-test, sourceSystem: erp-test }
flows:
${REQUESTS_FLOW}
metrics: { enabled: false }`;

/** The jobs for `yaml`, with a dispatcher and an exporter that count their wake-ups and flushes. */
async function jobsFor(yaml: string, fn: (jobs: ReturnType<typeof scheduledJobs>, counts: { wakes: number; flushes: number }) => Promise<void>) {
  await withTempDir(async (dir) => {
    const config = writeConfig(dir, yaml);
    await withStore(path.join(dir, 'state'), async (db) => {
      const counts = { wakes: 0, flushes: 0 };
      const dispatcher = { wake: () => void (counts.wakes += 1) };
      const exporter = { flush: () => Promise.resolve((counts.flushes += 1)) };
      await fn(scheduledJobs({ config, db, dispatcher, exporter, logger: silentLogger, clock: () => Date.now() }), counts);
    });
  });
}

describe('scheduledJobs', () => {
  it('runs the retry sweep, housekeeping and the summary; the sweep wakes delivery', async () => {
    await jobsFor(BASE, async (jobs, counts) => {
      expect(jobs.map((job) => job.name)).toEqual(['retry-sweep', 'housekeeping', 'summary']);
      await jobs[0]!.run();
      expect(counts).toEqual({ wakes: 1, flushes: 0 });
    });
  });

  it('adds the batch export, on its own cron line, when export.mode is batch', async () => {
    const batch = `${BASE}\nexport: { folder: {dir}/status, mapping: {repo}/config/mappings/status-export.yaml, mode: batch, batchCron: "0 * * * *" }`;
    await jobsFor(batch, async (jobs, counts) => {
      const job = jobs.find((j) => j.name === 'export-batch');
      expect(job?.cron).toBe('0 * * * *');
      await job!.run();
      expect(counts).toEqual({ wakes: 0, flushes: 1 });
    });
  });
});
