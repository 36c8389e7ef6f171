/**
 * A typo in a key is one mistake with one answer: the key's line and column, and the known key
 * nearest to it (`platform.sourceSytem (line 10, column 3): unknown key; did you mean sourceSystem?`),
 * without a second problem for the required key the typo hid. Real files: the shipped demo config
 * and the shipped 1C mapping, each broken in one way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigProblem } from '../../src/config/config-problem.js';
import { exportFormatSchema } from '../../src/config/export-format-schema.js';
import { issueProblems, knownKeysAt } from '../../src/config/key-problems.js';
import { loadConfig, readYamlSource } from '../../src/config/load-config.js';
import { requestsMappingSchema } from '../../src/config/mapping-schema.js';
import { nearestKey, typoDistance } from '../../src/config/nearest-key.js';
import { configSchema } from '../../src/config/schema.js';
import { isConnectorError } from '../../src/errors.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { REPO } from '../helpers/with-daemon.js';

const DEMO = fs.readFileSync(path.join(REPO, 'config/demo.yaml'), 'utf8');
const MAPPING = fs.readFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), 'utf8');

/** `text` with the `nth` (from 0) occurrence of `from` replaced by `to`. */
function replaceNth(text: string, from: string, to: string, nth = 0): string {
  let at = -1;
  for (let i = 0; i <= nth; i += 1) at = text.indexOf(from, at + 1);
  if (at === -1) throw new Error(`no ${from} #${nth} in the text`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** The 1-based line and column where `word` starts, the `nth` time it stands in `text`. */
function placeOf(text: string, word: string, nth = 0): { line: number; column: number } {
  let at = -1;
  for (let i = 0; i <= nth; i += 1) at = text.indexOf(word, at + 1);
  const before = text.slice(0, at);
  return { line: before.split('\n').length, column: at - before.lastIndexOf('\n') };
}

/** The console's text of an unknown key with a suggestion. */
const near = (suggestion: string) => ({ key: 'unknownKeyNear', params: { suggestion } });

/** What `loadConfig` refuses `text` with: the message and the problems. */
function refusal(text: string): Promise<{ message: string; problems: ConfigProblem[] }> {
  return withTempDir((dir) => {
    const file = path.join(dir, 'connector.yaml');
    fs.writeFileSync(file, text);
    try {
      loadConfig(file, {});
    } catch (error) {
      if (!isConnectorError(error, 'CONFIG_INVALID')) throw error;
      return { message: error.message, problems: error.details.problems as ConfigProblem[] };
    }
    throw new Error('expected the config to be refused');
  });
}

describe('an unknown key in the config', () => {
  it('a typo of a required key: one problem, at its line and column, naming the key meant; no "is required" beside it', async () => {
    const text = DEMO.replace('  sourceSystem: erp-demo', '  sourceSytem: erp-demo');
    const { line, column } = placeOf(text, 'sourceSytem');
    const { message, problems } = await refusal(text);
    expect(problems).toEqual([{ path: 'platform.sourceSytem', message: 'unknown key; did you mean sourceSystem?', text: near('sourceSystem'), line, column }]);
    expect(message).toContain(`  platform.sourceSytem (line ${line}, column ${column}): unknown key; did you mean sourceSystem?`);
    expect(message).not.toMatch(/platform\.sourceSystem\b/);
  });

  it('the required key really missing, with no typo to explain it, is required', async () => {
    const { problems } = await refusal(DEMO.replace('  sourceSystem: erp-demo\n', ''));
    expect(problems).toEqual([{ path: 'platform.sourceSystem', message: 'is required', text: { key: 'keyRequired' } }]);
  });

  it('a key in a list item (flows[1].intake.stableFor): its own line and column, the key meant', async () => {
    const text = replaceNth(DEMO, 'stableForMs: 500', 'stableFor: 500', 1);
    const { line, column } = placeOf(text, 'stableFor: 500');
    const { message, problems } = await refusal(text);
    expect(problems).toEqual([
      { path: 'flows[1].intake.stableFor', message: 'unknown key; did you mean stableForMs?', text: near('stableForMs'), line, column },
    ]);
    expect(message).toContain(`flows[1].intake.stableFor (line ${line}, column ${column}): unknown key; did you mean stableForMs?`);
  });

  it('nothing close: no suggestion, still its place; a key in another case is a typo of it', async () => {
    const text = DEMO.replace('stateDir: ./var/state', 'stateDir: ./var/state\ncolour: blue').replace('  token: demo-token', '  Token: demo-token');
    const { problems } = await refusal(text);
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'colour', message: 'unknown key', text: { key: 'unknownKey' }, ...placeOf(text, 'colour') },
        { path: 'platform.Token', message: 'unknown key; did you mean token?', text: near('token'), ...placeOf(text, 'Token') },
      ]),
    );
  });

  it('keys of a flow-style mapping are placed too', async () => {
    const text = DEMO.replace(
      /platform:\n {2}baseUrl: (\S+)\n {2}token: (\S+)\n {2}sourceSystem: (\S+)\n/,
      'platform: { baseUrl: $1, tokn: $2, sourceSystem: $3 }\n',
    );
    const { problems } = await refusal(text);
    expect(problems).toEqual([{ path: 'platform.tokn', message: 'unknown key; did you mean token?', text: near('token'), ...placeOf(text, 'tokn') }]);
  });

  it('a wrong value keeps the schema’s words, without a place (it is not about a key)', async () => {
    const { problems } = await refusal(DEMO.replace('  - name: requests\n    kind: requests', '  - name: requests\n    kind: orders'));
    expect(problems).toEqual([
      { path: 'flows[0].kind', message: expect.stringContaining('requests'), text: { key: 'oneOf', params: { values: 'requests, confirmations' } } },
    ]);
  });
});

describe('an unknown key in a mapping file (the same machinery, with the mapping schema)', () => {
  it('externalld under request: its line and column, did you mean externalId, no "externalId is required"', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'requests.yaml');
      const text = MAPPING.replace('  externalId:', '  externalld:');
      fs.writeFileSync(file, text);
      const source = readYamlSource(file, 'mapping');
      const parsed = requestsMappingSchema.safeParse(source.data);
      expect(parsed.success).toBe(false);
      const problems = issueProblems(parsed.error!.issues, { schema: requestsMappingSchema, data: source.data, source });
      expect(problems).toEqual([
        { path: 'request.externalld', message: 'unknown key; did you mean externalId?', text: near('externalId'), ...placeOf(text, 'externalld') },
      ]);
    });
  });

  it('a section below the top (acknowledgements) names its keys from there', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'requests.yaml');
      fs.writeFileSync(file, 'request:\n  externalId: { column: "N" }\nacknowledgements:\n  format: csv\n  fileNme: "x.csv"\n');
      const source = readYamlSource(file, 'mapping');
      const section = source.data.acknowledgements;
      const parsed = exportFormatSchema.safeParse(section);
      const problems = issueProblems(parsed.error!.issues, { schema: exportFormatSchema, data: section, source, at: ['acknowledgements'] });
      expect(problems).toEqual([
        { path: 'acknowledgements.fileNme', message: 'unknown key; did you mean fileName?', text: near('fileName'), line: 5, column: 3 },
      ]);
    });
  });
});

describe('knownKeysAt', () => {
  it('reads through defaults, optionals, arrays and a refined object', () => {
    expect(knownKeysAt(configSchema, ['platform'])).toContain('sourceSystem');
    expect(knownKeysAt(configSchema, ['flows', 3, 'intake'])).toContain('stableForMs');
    expect(knownKeysAt(configSchema, [])).toEqual(expect.arrayContaining(['stateDir', 'platform', 'flows', 'delivery']));
    expect(knownKeysAt(configSchema, ['platform', 'token'])).toEqual([]);
    expect(knownKeysAt(configSchema, ['nowhere'])).toEqual([]);
  });
});

describe('nearestKey', () => {
  const known = ['sourceSystem', 'stableForMs', 'minAgeMs', 'token', 'baseUrl', 'externalId', 'name', 'unit'];
  it.each([
    ['sourceSytem', 'sourceSystem'], // a letter dropped
    ['externalld', 'externalId'], // l for I
    ['stableFroMs', 'stableForMs'], // two neighbours swapped: one slip
    ['STABLEFORMS', 'stableForMs'], // case alone
    ['stableFor', 'stableForMs'], // the unit left out
    ['tokn', 'token'],
    ['colour', undefined], // nothing close
    ['nmae', 'name'],
    ['uni', 'unit'],
    ['nam', 'name'],
  ])('%s → %s', (key, expected) => {
    expect(nearestKey(key, known)).toBe(expected);
  });

  it('two keys equally close: no guess', () => {
    expect(nearestKey('cat', ['bat', 'hat'])).toBeUndefined();
  });

  it.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['abc', 'acb', 1],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3], // optimal string alignment: no edit inside a swapped pair
  ])('typoDistance(%j, %j) = %i', (a, b, expected) => {
    expect(typoDistance(a, b)).toBe(expected);
    expect(typoDistance(b, a)).toBe(expected);
  });
});
