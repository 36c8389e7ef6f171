/**
 * A coverage-guided mutational fuzzer in the process itself: inputs from a target's corpus are
 * mutated (libFuzzer's kinds of mutation: bits, bytes, ranges, dictionary tokens, splices), each
 * mutant is run through the target's checks (`check.ts`), and a mutant that reaches code no input
 * reached before joins the corpus, so that the search goes deeper into the readers than random
 * bytes ever would. Coverage is V8's own (block coverage with counts, through `node:inspector`),
 * kept per block and per power-of-two bucket of its count, as libFuzzer keeps its counters.
 *
 * Hand-written because the fuzzer the JavaScript projects of OSS-Fuzz use, Jazzer.js, cannot run
 * here: its native part (`@jazzer.js/fuzzer` 4.0.0) is built against glibc 2.38, this Debian 12
 * machine has 2.36, and building it needs LLVM's sources from the network. The targets keep
 * Jazzer.js's shape, so that they run under it where it loads.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { check } from './check.js';
import { CORPUS_ROOT, corpusOf, type FuzzTarget } from './targets.js';

/** Mutants are kept below this size: the bounds of size are tested by the named hostile shapes. */
const MAX_INPUT_BYTES = 128 * 1024;
/** Mutants run between two coverage reads (a read walks every function V8 knows; this many runs share it). */
const BATCH = 8;

export interface FuzzReport {
  target: string;
  seed: number;
  executions: number;
  /** Blocks of src/ code reached (with count buckets), and the corpus grown to reach them. */
  coverage: number;
  corpus: number;
  /** Each finding, with the file that reproduces it (written into the target's corpus folder). */
  findings: { file: string; reason: string }[];
}

/** A small seeded generator (mulberry32): a run is reproduced by its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** V8's block coverage of src/, as the set of blocks reached, each with the bucket of its count. */
class Coverage {
  private readonly session = new Session();
  private readonly seen = new Set<string>();

  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  }

  /** Read (and reset) the counters; the number of blocks and buckets not seen before, kept as seen when `keep`. */
  async take(keep = true): Promise<number> {
    const { result } = await this.session.post('Profiler.takePreciseCoverage');
    let fresh = 0;
    for (const script of result) {
      if (!script.url.includes('/src/') || script.url.includes('node_modules')) continue;
      for (const fn of script.functions) {
        for (const range of fn.ranges) {
          if (range.count === 0) continue;
          const key = `${script.url}:${range.startOffset}:${range.endOffset}:${31 - Math.clz32(range.count)}`;
          if (this.seen.has(key)) continue;
          if (keep) this.seen.add(key);
          fresh += 1;
        }
      }
    }
    return fresh;
  }

  get size(): number {
    return this.seen.size;
  }

  async stop(): Promise<void> {
    await this.session.post('Profiler.stopPreciseCoverage');
    this.session.disconnect();
  }
}

/** One mutant of `input`: one to four of libFuzzer's kinds of mutation. */
export function mutate(input: Buffer, corpus: readonly Buffer[], dictionary: readonly Buffer[], random: () => number): Buffer {
  let bytes = Buffer.from(input);
  const pick = (n: number) => Math.floor(random() * n);
  const rounds = 1 + pick(4);
  for (let r = 0; r < rounds; r += 1) {
    const at = pick(bytes.length + 1);
    switch (pick(9)) {
      case 0: // flip a bit
        if (bytes.length > 0) bytes[pick(bytes.length)]! ^= 1 << pick(8);
        break;
      case 1: // an interesting byte
        if (bytes.length > 0) bytes[pick(bytes.length)] = [0x00, 0xff, 0x7f, 0x80, 0x22, 0x3b, 0x0a, 0x0d, 0x3c, 0x3e, 0x26, 0xd0, 0xef][pick(13)]!;
        break;
      case 2: // insert random bytes
        // From the seeded generator, not crypto: FUZZ_SEED must repeat a run.
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(Array.from({ length: 1 + pick(8) }, () => pick(256))), bytes.subarray(at)]);
        break;
      case 3: {
        // delete a range
        const length = 1 + pick(Math.max(1, Math.min(64, bytes.length - at)));
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + length)]);
        break;
      }
      case 4: {
        // copy a range elsewhere
        const from = pick(bytes.length + 1);
        const length = pick(Math.min(256, bytes.length - from) + 1);
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(from, from + length), bytes.subarray(at)]);
        break;
      }
      case 5: // insert a token
      case 6: {
        const token = dictionary[pick(dictionary.length)];
        if (token) bytes = Buffer.concat([bytes.subarray(0, at), token, bytes.subarray(at)]);
        break;
      }
      case 7: {
        // overwrite with a token
        const token = dictionary[pick(dictionary.length)];
        if (token) bytes = Buffer.concat([bytes.subarray(0, at), token, bytes.subarray(at + token.length)]);
        break;
      }
      default: {
        // splice with another input
        const other = corpus[pick(corpus.length)];
        if (other) bytes = Buffer.concat([bytes.subarray(0, at), other.subarray(pick(other.length + 1))]);
      }
    }
  }
  return bytes.length > MAX_INPUT_BYTES ? bytes.subarray(0, MAX_INPUT_BYTES) : bytes;
}

/** Keep a finding's input beside the target's corpus, named by its content. */
function keepFinding(target: FuzzTarget, bytes: Buffer): string {
  const file = path.join(CORPUS_ROOT, target.name, `finding-${crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
  return file;
}

/**
 * Fuzz `target` for `seconds`, starting from its committed corpus. A finding is kept as a file
 * (to commit: it then replays in `npm test`), and the run goes on to look for others.
 */
export async function fuzzTarget(target: FuzzTarget, seconds: number, seed: number, extraSeeds: readonly Buffer[] = []): Promise<FuzzReport> {
  const random = seededRandom(seed);
  // A token of bytes (a zip signature, a BOM written as \xEF\xBB\xBF) is latin1, one byte a character; text is UTF-8.
  const bytesOnly = (token: string) => [...token].every((character) => character.charCodeAt(0) <= 0xff);
  const dictionary = target.dictionary.map((token) => Buffer.from(token, token.startsWith('PK') || bytesOnly(token) ? 'latin1' : 'utf8'));
  const corpus: Buffer[] = [...corpusOf(target).map((entry) => entry.bytes), ...extraSeeds];
  if (corpus.length === 0) corpus.push(Buffer.alloc(0));
  const report: FuzzReport = { target: target.name, seed, executions: 0, coverage: 0, corpus: corpus.length, findings: [] };
  const findingsSeen = new Set<string>();
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  const coverage = new Coverage();
  await coverage.start();

  const run = async (bytes: Buffer): Promise<void> => {
    report.executions += 1;
    let reason = await check(target, bytes, random);
    if (reason === null && rejections.length > 0) reason = `an unhandled rejection: ${String((rejections.splice(0)[0] as Error)?.stack ?? '')}`;
    if (reason === null) return;
    const kind = reason.split('\n')[0]!.slice(0, 120);
    if (findingsSeen.has(kind)) return;
    findingsSeen.add(kind);
    report.findings.push({ file: keepFinding(target, bytes), reason });
  };

  try {
    for (const bytes of corpus) await run(bytes);
    await coverage.take();
    const deadline = Date.now() + seconds * 1000;
    while (Date.now() < deadline) {
      const batch = Array.from({ length: BATCH }, () => mutate(corpus[Math.floor(random() * corpus.length)]!, corpus, dictionary, random));
      for (const bytes of batch) await run(bytes);
      if ((await coverage.take(false)) === 0) continue;
      // Something in the batch reached new code: find which, one at a time.
      for (const bytes of batch) {
        await target.run(bytes).catch(() => undefined);
        if ((await coverage.take()) > 0) corpus.push(bytes);
      }
    }
    report.coverage = coverage.size;
    report.corpus = corpus.length;
    return report;
  } finally {
    process.off('unhandledRejection', onRejection);
    await coverage.stop();
  }
}
