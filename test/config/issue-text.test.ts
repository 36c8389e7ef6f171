/**
 * A mapping's problems keep their words in every language: each problem `check` finds has a console
 * text whose key both catalogues have, and whose parameters the words keep.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { translator } from '../../src/admin/console/i18n.js';
import { textsEn } from '../../src/admin/console/texts-en.js';
import type { ConfigProblem } from '../../src/config/config-problem.js';
import { parseMappingText } from '../../src/config/load-mapping.js';
import { YAML_ERROR_KEYS } from '../../src/config/yaml-error-keys.js';
import { isConnectorError } from '../../src/errors.js';
import { REPO } from '../helpers/with-daemon.js';

const languages = [translator('en'), translator('ru')];

function problemsOf(yaml: string): ConfigProblem[] {
  try {
    parseMappingText(yaml, 'requests.yaml');
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    return error.details.problems as ConfigProblem[];
  }
  throw new Error('expected the mapping to be refused');
}

/** The shipped 1C mapping, which each case breaks in one way. */
const GOOD = fs.readFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), 'utf8');

describe('the console text of a mapping problem', () => {
  it.each([
    ['an unknown key with a suggestion', GOOD.replace('integer: true', 'integr: true'), 'unknownKeyNear', 'integer'],
    ['an unknown key', GOOD + 'colour: blue\n', 'unknownKey', undefined],
    ['a wrong type', GOOD.replace('integer: true', 'integer: 5'), 'expectedBoolean', undefined],
    ['a value not in the list', GOOD.replace('format: csv', 'format: docx'), 'oneOf', 'csv'],
    ['a date format without a year', GOOD.replace('date: "DD.MM.YYYY"', 'date: "DD.MM"'), 'dateTokens', 'DD.MM'],
    ['a field with two sources', GOOD.replace('{ column: "Город" }', '{ column: "Город", const: "x" }'), 'fieldSources', 'column, const'],
    ['a tab in the indentation', 'request:\n\texternalId: 1\n', 'yamlTabIndent', undefined],
    ['a placeholder the file name does not know', GOOD + 'acknowledgements:\n  format: csv\n  fileName: "ack-{nope}.csv"\n', 'unknownPlaceholder', '{nope}'],
  ])('%s: its key is in both catalogues, and every language keeps its parameters', (_name, yaml, key, param) => {
    const problem = problemsOf(yaml).find((p) => p.text?.key === key);
    expect(problem, JSON.stringify(problemsOf(yaml))).toBeDefined();
    for (const t of languages) {
      const words = t.text(problem!.text!);
      expect(words, `${t.language} ${key}`).toBeTypeOf('string');
      const entry = JSON.stringify(textsEn[key as keyof typeof textsEn]);
      for (const [, name] of entry.matchAll(/\{(\w+)\}/g)) expect(Object.keys(problem!.text!.params ?? {}), `${key} {${name}}`).toContain(name);
      if (param !== undefined) expect(words, `${t.language} ${key}`).toContain(param);
    }
  });

  it("words every one of the YAML parser's errors it names", () => {
    for (const key of Object.values(YAML_ERROR_KEYS)) expect(Object.hasOwn(textsEn, key), key).toBe(true);
  });
});
