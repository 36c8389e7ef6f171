/**
 * Every config or mapping that cannot be read as a YAML mapping is CONFIG_INVALID / MAPPING_INVALID
 * naming the file (exit 2, see test/cli-process.test.ts), never a crash: alias bombs,
 * cycles, NUL bytes, invalid UTF-8, folders, FIFOs, huge files, lists at the top.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, MAX_YAML_BYTES, MAX_YAML_DEPTH } from '../../src/config/load-config.js';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import { withTempDir } from '../helpers/temp-dir.js';

/** Nine levels of nine aliases each: 9^9 nodes once expanded. */
const ALIAS_BOMB = [
  'a: &a [x,x,x,x,x,x,x,x,x]',
  ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
].join('\n');

/** `k: ` on each line, one space deeper than the line before: `levels` nested block mappings. */
function blockNested(levels: number): string {
  return Array.from({ length: levels + 1 }, (_, i) => `${' '.repeat(i)}k${i === levels ? ': x' : ':'}`).join('\n') + '\n';
}

/** Five anchors, each a 20-deep list around the alias of the one before: 100 levels once copied. */
function aliasNested(): string {
  const lines = ['a0: &a0 x'];
  for (let i = 1; i <= 5; i += 1) lines.push(`a${i}: &a${i} ${'['.repeat(20)}*a${i - 1}${']'.repeat(20)}`);
  return lines.join('\n') + '\n';
}

type Make = (dir: string) => string;
const write =
  (content: string | Buffer): Make =>
  (dir) => {
    const file = path.join(dir, 'file.yaml');
    fs.writeFileSync(file, content);
    return file;
  };

const cases: [string, Make, RegExp][] = [
  ['an alias bomb', write(ALIAS_BOMB), /Excessive alias count/],
  ['an alias inside its own anchor (a cycle)', write('a: &a [ *a ]\n'), /an alias refers to a node that contains it/],
  ['a NUL byte', write('stateDir: ./x\0\n'), /contains a NUL byte at offset 13/],
  ['invalid UTF-8', write(Buffer.from([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a])), /is not valid UTF-8/],
  ['a folder', (dir) => dir, /is a directory, not a file/],
  [
    'a FIFO (read without blocking)',
    (dir) => {
      const fifo = path.join(dir, 'fifo.yaml');
      execFileSync('mkfifo', [fifo]);
      return fifo;
    },
    /is not a regular file/,
  ],
  ['a file past the size limit', write(`a: "${'x'.repeat(MAX_YAML_BYTES)}"\n`), new RegExp(`more than the ${MAX_YAML_BYTES}`)],
  ['a list at the top', write('- a\n- b\n'), /must be a YAML mapping \(key: value pairs\)/],
  ['a scalar at the top', write('just text\n'), /must be a YAML mapping/],
  ['an empty file', write(''), /must be a YAML mapping/],
  ['hundreds of YAML errors (listed up to ten)', write(']'.repeat(300)), /and \d+ more YAML errors/],
  // The yaml package composes recursively: a deep document is refused before, never left to the stack.
  [
    'flow collections nested 5,000 deep',
    write('['.repeat(5_000)),
    new RegExp(`nests deeper than ${MAX_YAML_DEPTH} levels at line 1, column ${MAX_YAML_DEPTH + 2}`),
  ],
  ['block mappings nested past the limit', write(blockNested(MAX_YAML_DEPTH + 1)), /nests deeper than 64 levels at line 66, column 66/],
  ['aliases that nest copies past the limit', write(aliasNested()), /nests deeper than 64 levels \(through aliases\)/],
];

describe('a config file that cannot be read', () => {
  it.each(cases)('%s is CONFIG_INVALID naming the file', async (_what, make, message) => {
    await withTempDir((dir) => {
      const file = make(dir);
      let thrown: unknown;
      try {
        loadConfig(file, {});
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(message) });
      expect((thrown as Error).message.startsWith(`${file} is invalid:`)).toBe(true);
    });
  });

  it('a missing file stays CONFIG_NOT_FOUND', async () => {
    await withTempDir((dir) => {
      expect(() => loadConfig(path.join(dir, 'none.yaml'), {})).toThrow(expect.objectContaining({ code: 'CONFIG_NOT_FOUND' }));
    });
  });
});

describe('a mapping file that cannot be read', () => {
  it.each(cases)('%s is MAPPING_INVALID naming the file', async (_what, make, message) => {
    await withTempDir((dir) => {
      const file = make(dir);
      expect(() => loadMappingSpec(file)).toThrow(expect.objectContaining({ code: 'MAPPING_INVALID', message: expect.stringMatching(message) }));
    });
  });
});

describe('a YAML syntax error', () => {
  it('names its line and column, in the message and in the problem (for the console’s editor)', async () => {
    await withTempDir((dir) => {
      const file = write('request:\n  externalId: { column: "Номер"\n  customer.inn: x\n')(dir);
      let thrown: unknown;
      try {
        loadMappingSpec(file);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        code: 'MAPPING_INVALID',
        message: expect.stringMatching(/\(file\): Flow map in block collection must be sufficiently indented and end with a \} at line 3, column 3$/),
        details: { problems: [{ path: '', line: 3, column: 3 }] },
      });
    });
  });
});
