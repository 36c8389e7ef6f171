/**
 * The exchange's codes 1C could not hold (`config/exchange-code-warnings.ts`): said by `check` and
 * at start (`configWarnings`), naming the key and the reason; a code 1C can hold says nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWarnings } from '../../src/config/config-warnings.js';
import { exchangeCodeWarnings } from '../../src/config/exchange-code-warnings.js';
import { loadConfig } from '../../src/config/load-config.js';
import { withTempDir } from '../helpers/temp-dir.js';

const UUID = '5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22';
const flowWith = (node: string, peer: string) => ({
  enterpriseData: { node, peer, versions: ['1.8' as const], transliterateFileNames: false },
});

describe('exchangeCodeWarnings', () => {
  it.each([
    ['two Cyrillic prefixes', 'ПК', 'УТ'],
    ['two Latin prefixes', 'PC', 'UT'],
    ['one-character prefixes', 'П', 'У'],
    ["1C's exchange UUID as peer", 'ПК', UUID],
    ["1C's exchange UUID in capitals", 'ПК', UUID.toUpperCase()],
  ])('says nothing of %s', (_what, node, peer) => {
    expect(exchangeCodeWarnings([flowWith(node, peer)])).toEqual([]);
  });

  it('says nothing of a flow without an exchange', () => {
    expect(exchangeCodeWarnings([{ enterpriseData: undefined }])).toEqual([]);
  });

  it('warns of a node longer than 1C’s prefix field, naming the key, the length and where 1C keeps it', () => {
    expect(exchangeCodeWarnings([{ enterpriseData: undefined }, flowWith('PROC', 'УТ')])).toEqual([
      expect.stringMatching(/^flows\[1\]\.enterpriseData\.node "PROC" is 4 characters long, .*«Префикс» under «Общие параметры»\), at most 2 characters/),
    ]);
  });

  it.each([
    ['three characters', 'УТ1'],
    ['36 characters that are not a UUID', 'x'.repeat(36)],
    ['a UUID without its dashes', UUID.replaceAll('-', '')],
  ])('warns of a peer that is neither a prefix nor a UUID: %s', (_what, peer) => {
    expect(exchangeCodeWarnings([flowWith('ПК', peer)])).toEqual([
      expect.stringMatching(
        new RegExp(
          `^flows\\[0\\]\\.enterpriseData\\.peer "${peer}" is neither 1C's infobase prefix .*«Префикс этой информационной базы».* nor its exchange UUID \\(36 characters, NewFrom`,
        ),
      ),
    ]);
  });

  it('counts characters, not bytes or UTF-16 units', () => {
    expect(exchangeCodeWarnings([flowWith('ЖЖ', '😀😀')])).toEqual([]);
    expect(exchangeCodeWarnings([flowWith('ЖЖЖ', 'УТ')])).toEqual([expect.stringContaining('is 3 characters long')]);
  });
});

describe('configWarnings', () => {
  it('carries the codes’ warnings, for `check` to print and `run` to log', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'c.yaml');
      fs.writeFileSync(
        file,
        `
platform: { baseUrl: "http://127.0.0.1:8787", token: a-platform-token, sourceSystem: erp-main }
flows:
  - name: exchange-1c
    kind: requests
    inbox: ./var/exchange
    mapping: config/mappings/enterprisedata-orders.yaml
    results: ./var/import
    enterpriseData: { node: PROC, peer: UT11 }
`,
      );
      expect(configWarnings(loadConfig(file, {}))).toEqual([
        expect.stringMatching(/^flows\[0\]\.enterpriseData\.node "PROC" is 4 characters long/),
        expect.stringMatching(/^flows\[0\]\.enterpriseData\.peer "UT11" is neither/),
      ]);
    });
  });
});
