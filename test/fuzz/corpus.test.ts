/**
 * Every committed fuzz input replayed through its target's checks (`check.ts`), as xmldom replays
 * its crash corpus in CI: the seeds, every input that ever failed, and the hostile shapes, in
 * `test/fuzz/<target>/`. `npm run fuzz` searches for new ones (`fuzz.run.ts`).
 */
import { describe, expect, it } from 'vitest';
import { check } from './check.js';
import { seededRandom } from './engine.js';
import { TARGETS, corpusOf } from './targets.js';

/** Ways of cutting each finding of a streaming reader. */
const CUTS = 64;

describe.each(TARGETS.map((target) => [target.name, target] as const))('the committed corpus of %s', (_name, target) => {
  const corpus = corpusOf(target);

  it('holds seeds', () => {
    expect(corpus.length).toBeGreaterThan(0);
  });

  it.each(corpus.map((entry) => [entry.file.slice(entry.file.lastIndexOf('/test/fuzz/') + 1), entry] as const))('accepts %s', async (_file, entry) => {
    expect(await check(target, entry.bytes, seededRandom(entry.bytes.length))).toBeNull();
  });

  // A finding of a streaming reader may show only when its bytes arrive cut in one place: each is
  // read in many ways of cutting it, not one (finding-56df896c02b8268e needed a cut between the
  // root element's end tag and the text after it).
  const findings = corpus.filter((entry) => target.streams && /\/finding-[^/]+$/.test(entry.file));
  it.each(findings.map((entry) => [entry.file.slice(entry.file.lastIndexOf('/test/fuzz/') + 1), entry] as const))(
    'accepts %s in 64 ways of cutting it',
    async (_file, entry) => {
      for (let cut = 1; cut <= CUTS; cut += 1) expect(await check(target, entry.bytes, seededRandom(entry.bytes.length * CUTS + cut))).toBeNull();
    },
  );
});
