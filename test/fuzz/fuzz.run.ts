/**
 * `npm run fuzz`: every target (or those named in FUZZ_TARGETS, comma-separated) fuzzed for
 * FUZZ_SECONDS each (default 60) from its committed corpus, coverage-guided (`engine.ts`). Prints
 * executions, coverage and corpus per target, and each finding with the file that reproduces it (in
 * the target's corpus folder: commit it, with the fix, and `npm test` replays it for ever). A finding
 * fails the run. FUZZ_SEED repeats a run; FUZZ_REPLAY=<target>:<file> runs one input through its
 * target's checks and prints the verdict.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from './check.js';
import { fuzzTarget, seededRandom } from './engine.js';
import { TARGETS } from './targets.js';

const seconds = Number(process.env.FUZZ_SECONDS ?? 60);
const only = process.env.FUZZ_TARGETS?.split(',').map((name) => name.trim());
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/** FUZZ_REPLAY=<target>:<file>: run one input through its target's checks and print what they say. */
const replay = process.env.FUZZ_REPLAY;

describe.runIf(replay !== undefined)('replaying one input', () => {
  it(replay ?? '', async () => {
    const [name, file] = replay!.split(/:(.*)/s);
    const target = TARGETS.find((t) => t.name === name);
    if (!target) throw new Error(`no target ${name}: ${TARGETS.map((t) => t.name).join(', ')}`);
    const verdict = await check(target, fs.readFileSync(file!), seededRandom(Number(process.env.FUZZ_SEED ?? 1)));
    console.info(verdict ?? 'accepted');
    expect(verdict).toBeNull();
  });
});

describe.runIf(replay === undefined)('fuzzing', () => {
  for (const target of TARGETS.filter((t) => only === undefined || only.includes(t.name))) {
    it(`${target.name} for ${seconds} s`, { timeout: (seconds + 120) * 1000 }, async () => {
      const report = await fuzzTarget(target, seconds, seed);
      console.info(
        `[fuzz ${report.target}] seed=${report.seed} executions=${report.executions} (${Math.round(report.executions / seconds)}/s) coverage=${report.coverage} corpus=${report.corpus} findings=${report.findings.length}`,
      );
      for (const finding of report.findings) console.error(`[fuzz ${report.target}] FINDING, reproduced by ${finding.file}:\n${finding.reason}`);
      expect(report.findings.map((finding) => finding.file)).toEqual([]);
    });
  }
});
