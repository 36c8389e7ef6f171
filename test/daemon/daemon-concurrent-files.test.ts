/**
 * `intake.concurrentFiles`: the daemon's flows share one gate, so no more files are read and
 * recorded at once than the key allows, however many flows have files waiting (the memory budget
 * counts on it: docs/reliability.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { REQUESTS_MAPPING_YAML, requestCsv, requestRow } from '../helpers/fixtures.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { FAST_DELIVERY, FAST_INTAKE_YAML, withDaemon, writeConfig } from '../helpers/with-daemon.js';

const FLOWS = ['north', 'south', 'west'];

/** The daemon's log lines, parsed. */
function capturingLogger(lines: Record<string, unknown>[]) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return createLogger({ level: 'info', destination: sink });
}

/**
 * The most files between their `file taken` and their `file recorded` lines at any one time: read
 * and recorded, what the gate bounds. (Their moves out of `processing/` come later, in groups, and
 * hold no file's contents.)
 */
function mostAtOnce(lines: readonly Record<string, unknown>[]): number {
  let now = 0;
  let most = 0;
  for (const line of lines) {
    if (line.msg === 'file taken') most = Math.max(most, ++now);
    if (line.msg === 'file recorded') now -= 1;
  }
  return most;
}

async function filesAtOnce(concurrentFiles: number): Promise<number> {
  return withTempDir(async (dir) => {
    fs.writeFileSync(path.join(dir, 'requests.yaml'), REQUESTS_MAPPING_YAML);
    const flows = FLOWS.map(
      (name) => `
  - name: ${name}
    kind: requests
    inbox: {dir}/${name}
    mapping: {dir}/requests.yaml
    results: {dir}/import
${FAST_INTAKE_YAML}`,
    ).join('');
    const config = writeConfig(
      dir,
      `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: gate-token-123, sourceSystem: erp-test }
flows:${flows}
intake: { concurrentFiles: ${concurrentFiles} }
${FAST_DELIVERY}
metrics: { enabled: false }
sandbox: { enabled: true, port: 0, demo: false }
`,
    );
    const lines: Record<string, unknown>[] = [];
    await withDaemon(
      config,
      async () => {
        // Files of a few thousand rows, all dropped at once: each takes many reads to map, so
        // flows without a shared gate interleave them.
        for (const [index, name] of FLOWS.entries()) {
          const rows = Array.from({ length: 3_000 }, (_, i) => requestRow(`${name.toUpperCase()}-${index}-${i}`));
          fs.writeFileSync(path.join(dir, `${name}.tmp`), requestCsv(rows));
        }
        for (const name of FLOWS) fs.renameSync(path.join(dir, `${name}.tmp`), path.join(dir, name, `${name}.csv`));
        await waitUntil(() => lines.filter((line) => line.msg === 'file archived').length === FLOWS.length, 'every file archived', 60_000);
      },
      { logger: capturingLogger(lines) },
    );
    return mostAtOnce(lines);
  });
}

describe('the daemon: intake.concurrentFiles', () => {
  it('reads one file at a time across its flows with concurrentFiles: 1', async () => {
    expect(await filesAtOnce(1)).toBe(1);
  });

  it('reads at most two at a time with concurrentFiles: 2', async () => {
    expect(await filesAtOnce(2)).toBeLessThanOrEqual(2);
  });
});
