/**
 * A storm of hostile files for one flow, made deterministically from a seeded random source: valid
 * exports and the sample broken by byte flips, truncation and chunks copied over and over; huge
 * values put inside a field; files of thousands of bad requests (each a problem, some with an
 * externalId kilobytes long, which every problem repeats); a few large valid files; and two of tens
 * of MB (bad requests past the problem limit; one value of 24 MB), within the intake's limits.
 */
import type { StormFormat } from './storm-formats.js';

export interface StormFile {
  name: string;
  bytes: Buffer;
  kind: string;
}

export interface Random {
  next: () => number;
  between: (min: number, max: number) => number;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** How many files of each kind a flow gets (100 in all). */
const KINDS: [kind: string, count: number][] = [
  ['valid', 17],
  ['sample-broken', 10],
  ['flipped', 12],
  ['truncated', 10],
  ['duplicated', 12],
  ['huge-field', 10],
  ['bad-rows', 10],
  ['past-problem-limit', 1],
  ['bad-wide-keys', 5],
  ['large-valid', 2],
  ['tens-of-mb-bad', 1],
  ['tens-of-mb-wide-keys', 1],
  ['tens-of-mb-field', 1],
  ['file-bytes-flipped', 8],
];

function flipBytes(random: Random, content: Buffer): Buffer {
  const out = Buffer.from(content);
  const flips = random.between(1, 40);
  for (let i = 0; i < flips; i += 1) {
    const at = random.between(0, out.length - 1);
    out[at] = out[at]! ^ (1 << random.between(0, 7));
  }
  return out;
}

function truncate(random: Random, content: Buffer): Buffer {
  return content.subarray(0, random.between(1, Math.max(1, content.length - 1)));
}

/** A chunk of the content copied in again and again after itself (rows, elements, or half of each). */
function duplicateChunk(random: Random, content: Buffer): Buffer {
  const start = random.between(0, content.length - 1);
  const chunk = content.subarray(start, Math.min(content.length, start + random.between(64, 64 * KiB)));
  const times = Math.min(random.between(2, 400), Math.floor((2 * MiB) / chunk.length) + 1);
  return Buffer.concat([content.subarray(0, start), ...Array.from({ length: times }, () => chunk), content.subarray(start)]);
}

/** Letters and spaces, `bytes` of them: a value nothing stops before the reader's own limits. */
function hugeValue(random: Random, bytes: number): Buffer {
  const unit = Buffer.alloc(64 * KiB);
  for (let i = 0; i < unit.length; i += 1) unit[i] = random.next() < 0.15 ? 0x20 : 0x61 + random.between(0, 25);
  return Buffer.concat(Array.from({ length: Math.ceil(bytes / unit.length) }, () => unit)).subarray(0, bytes);
}

/** `value` put right after one (random) place where a field's value starts. */
function insertIntoField(random: Random, content: Buffer, marker: Buffer, value: Buffer): Buffer {
  const places: number[] = [];
  for (let at = content.indexOf(marker); at !== -1 && places.length < 1_000; at = content.indexOf(marker, at + 1)) places.push(at + marker.length);
  const at = places.length === 0 ? random.between(0, content.length) : places[random.between(0, places.length - 1)]!;
  return Buffer.concat([content.subarray(0, at), value, content.subarray(at)]);
}

/** Bad requests enough for about `bytes` of content. */
function badFileOf(format: StormFormat, run: string, base: number, bytes: number): Buffer {
  const probe = format.render(run, base, base + 200, { badInn: true }).length;
  return format.render(run, base, base + Math.ceil((bytes / probe) * 200), { badInn: true });
}

/** The storm of one flow: `KINDS` in a seeded order, each file named `storm-<flow>-<nnn>-<kind>.<ext>`. */
export function stormFiles(format: StormFormat, random: Random, run: string): StormFile[] {
  const kinds = KINDS.flatMap(([kind, count]) => Array.from({ length: count }, () => kind));
  for (let i = kinds.length - 1; i > 0; i -= 1) {
    const j = random.between(0, i);
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return kinds.map((kind, index) => {
    // Each file has requests of its own (numbers apart), so that valid ones are new requests.
    const base = index * 20_000;
    const small = () => format.render(run, base, base + random.between(1, 60));
    const content = (): Buffer => {
      switch (kind) {
        case 'valid':
          return small();
        case 'sample-broken': {
          const sample = format.sample ?? small();
          const how = random.between(0, 2);
          return how === 0 ? flipBytes(random, sample) : how === 1 ? truncate(random, sample) : duplicateChunk(random, sample);
        }
        case 'flipped':
          return flipBytes(random, small());
        case 'truncated':
          return truncate(random, small());
        case 'duplicated':
          return duplicateChunk(random, small());
        case 'huge-field':
          return insertIntoField(random, small(), format.fieldStart, hugeValue(random, random.between(64 * KiB, 2 * MiB)));
        case 'bad-rows':
          return format.render(run, base, base + random.between(1_000, 2_000), { badInn: true });
        case 'past-problem-limit':
          return format.render(run, base, base + 10_200, { badInn: true });
        case 'bad-wide-keys':
          return format.render(run, base, base + random.between(300, 1_000), { badInn: true, keyPad: random.between(500, 3_000) });
        case 'large-valid':
          return format.render(run, base, base + 1_500);
        case 'tens-of-mb-bad':
          // Under 50 MB: a JSON file is read whole up to that, and this one must be read.
          return badFileOf(format, run, base, random.between(16, 24) * MiB);
        case 'tens-of-mb-wide-keys': {
          // 1,050 bad requests, each key 6,000 characters: every listed problem repeats its key.
          return format.render(run, base, base + 1_050, { badInn: true, keyPad: 6_000 });
        }
        case 'tens-of-mb-field':
          return insertIntoField(random, small(), format.fieldStart, hugeValue(random, 20 * MiB));
        default:
          return small();
      }
    };
    const packed = format.pack(content());
    // The last kind breaks the file's own bytes (a workbook's zip), not the content inside.
    const bytes = kind === 'file-bytes-flipped' ? flipBytes(random, packed) : packed;
    return { name: `storm-${format.flow}-${String(index).padStart(3, '0')}-${kind}.${format.ext}`, bytes, kind };
  });
}
