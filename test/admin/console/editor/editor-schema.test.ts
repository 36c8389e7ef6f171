/**
 * The mapping editor's schema logic, without a browser: where the cursor is in half-written YAML,
 * what is offered there, what hover says, and which problems are underlined where, all read from
 * the schemas `jsonSchemaOf` generates (the ones the page fetches).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextAt, keyAt } from '../../../../src/admin/console/editor/cursor-context.js';
import { describeAt, scalarText, suggestAt } from '../../../../src/admin/console/editor/schema-assist.js';
import { placeDaemonProblems } from '../../../../src/admin/console/editor/daemon-problems.js';
import { createChecker } from '../../../../src/admin/console/editor/schema-problems.js';
import { describeType, schemasAt, type Schema } from '../../../../src/admin/console/editor/schema-walk.js';
import { jsonSchemaOf } from '../../../../src/config/json-schema.js';
import { parseYamlBytes } from '../../../../src/config/load-config.js';
import type { ConnectorError } from '../../../../src/errors.js';
import { REPO } from '../../../helpers/with-daemon.js';

const REQUESTS = jsonSchemaOf('mapping-requests') as Schema;
const CONFIRMATIONS = jsonSchemaOf('mapping-confirmations') as Schema;
const MAPPING = fs.readFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), 'utf8');

/** `text` with `^` marking the cursor: the text without it, and the offset. */
function at(marked: string): [string, number] {
  const pos = marked.indexOf('^');
  return [marked.slice(0, pos) + marked.slice(pos + 1), pos];
}

describe('contextAt: where the cursor is', () => {
  it.each([
    ['gr^', { slot: 'key', path: [], word: 'gr', siblings: [] }],
    ['format: csv\n^', { slot: 'key', path: [], word: '', siblings: ['format'] }],
    ['request:\n  externalId: { column: A }\n  cust^\nitems:\n  name: {}', { slot: 'key', path: ['request'], word: 'cust', siblings: ['externalId'] }],
    ['request:\n  externalId:\n    column: A\n    ^', { slot: 'key', path: ['request', 'externalId'], word: '', siblings: ['column'] }],
    ['format: ^', { slot: 'value', path: ['format'], word: '' }],
    ['format: js^', { slot: 'value', path: ['format'], word: 'js' }],
    ['csv: { encoding: ^', { slot: 'value', path: ['csv', 'encoding'], word: '' }],
    ['csv: { encoding: utf-8, de^ }', { slot: 'key', path: ['csv'], word: 'de', siblings: ['encoding'] }],
    ['request:\n  x: { column: "a, b: {c}", op^', { slot: 'key', path: ['request', 'x'], word: 'op', siblings: ['column'] }],
    ['skipRows: { totals: [ Ит^', { slot: 'value', path: ['skipRows', 'totals', 0], word: 'Ит' }],
    ['columns:\n  - name: a\n    ma^', { slot: 'key', path: ['columns', 0], word: 'ma', siblings: ['name'] }],
    ['columns:\n  - name: a\n    map:\n      x^', { slot: 'key', path: ['columns', 0, 'map'], word: 'x', siblings: [] }],
    ['columns:\n  - na^', { slot: 'key', path: ['columns', 0], word: 'na', siblings: [] }],
    ['fileName: ack-{da^', { slot: 'value', path: ['fileName'], word: 'ack-{da' }],
  ])('%j', (marked, expected) => {
    const [text, pos] = at(marked);
    const context = contextAt(text, pos);
    expect(context).toMatchObject(expected);
    expect(context!.from).toBe(pos - expected.word.length);
  });

  it.each([
    ['in a comment', '# a comm^ent'],
    ['after a comment mark on the line', 'format: csv # no^'],
    ['in a block scalar', 'template: |\n  some te^'],
    ['below a scalar that goes on', 'comment: a long\n  te^'],
  ])('has nothing to say %s', (_what, marked) => {
    const [text, pos] = at(marked);
    expect(contextAt(text, pos)).toBeNull();
  });

  it('finds the key under the pointer, with its path, in block and flow mappings', () => {
    const text = 'request:\n  customer.inn: { column: "ИНН" }\n';
    expect(keyAt(text, text.indexOf('inn'))).toEqual({ path: ['request', 'customer.inn'], from: 11, to: 23 });
    expect(keyAt(text, text.indexOf('column') + 3)).toEqual({ path: ['request', 'customer.inn', 'column'], from: 27, to: 33 });
    expect(keyAt(text, text.indexOf('ИНН'))).toBeNull();
  });
});

describe('suggestAt: what the schema offers', () => {
  const labels = (marked: string, schema = REQUESTS) => {
    const [text, pos] = at(marked);
    return suggestAt(schema, text, pos)?.suggestions.map((s) => s.label) ?? null;
  };

  it('offers the keys a mapping takes, less those it has, with their type and description', () => {
    const [text, pos] = at(MAPPING.replace('groupBy: "Номер заявки"\n', 'groupBy: "Номер заявки"\n^\n'));
    const found = suggestAt(REQUESTS, text, pos)!;
    expect(found.suggestions.map((s) => s.label)).toEqual([
      'kind',
      'preset',
      'json',
      'xlsx',
      'xml',
      'record',
      'lines',
      'fillDown',
      'skipRows',
      'acknowledgements',
      'document',
      'withdrawals',
    ]);
    expect(found.suggestions.find((s) => s.label === 'skipRows')).toEqual({
      label: 'skipRows',
      apply: 'skipRows: ',
      kind: 'key',
      detail: 'a mapping',
      info: 'CSV, XLSX: rows that are not data. Default: blank rows and totals rows.',
    });
    expect(found.from).toBe(pos);
  });

  it("offers a section's keys through $ref and allOf, and a kind's own keys", () => {
    expect(labels('request:\n  comment: { co^')).toEqual(expect.arrayContaining(['column', 'const', 'counter', 'optional', 'map']));
    expect(labels('acknowledgements:\n  csv: { ^')).toEqual(expect.arrayContaining(['encoding', 'delimiter']));
    expect(labels('^', CONFIRMATIONS)).toContain('orderId');
    expect(labels('^', CONFIRMATIONS)).not.toContain('request');
  });

  it('offers the values a key allows: an enum, a const, true and false, quoted where YAML needs it', () => {
    expect(labels('format: ^')).toEqual(['csv', 'json', 'ndjson', 'xlsx', 'xml']);
    expect(labels('kind: ^')).toEqual(['requests']);
    expect(labels('csv: { decimalComma: ^')).toEqual(['true', 'false']);
    expect(labels('xlsx: { headerRow: ^')).toEqual(['auto']);
    const [text, pos] = at('csv: { encoding: ^');
    expect(suggestAt(REQUESTS, text, pos)!.suggestions.map((s) => `${s.label}:${s.detail}`)).toEqual(['utf-8:', 'windows-1251:', 'auto:default']);
  });

  it('offers nothing where the schema says nothing', () => {
    expect(labels('request:\n  bogus: { co^')).toBeNull();
    expect(labels('groupBy: ^')).toBeNull();
    expect(labels('# ^')).toBeNull();
  });

  it.each([
    ['csv', 'csv'],
    ['windows-1251', 'windows-1251'],
    ['customer.inn', 'customer.inn'],
    [';', '";"'],
    ['"', '"\\""'],
    ['true', '"true"'],
    ['12', '"12"'],
    ['Ед. изм.', 'Ед. изм.'],
    [' x', '" x"'],
    [true, 'true'],
  ])('writes %j as %s', (value, written) => {
    expect(scalarText(value)).toBe(written);
  });
});

describe('describeAt: hover', () => {
  it("says a key's path, type, default and description", () => {
    const text = 'csv: { encoding: auto }\ngroupBy: x\n';
    expect(describeAt(REQUESTS, text, text.indexOf('encoding') + 2)).toEqual({
      from: 7,
      to: 15,
      title: 'csv › encoding',
      type: 'one of utf-8, windows-1251, auto',
      fallback: '"auto"',
      description: undefined,
    });
    expect(describeAt(REQUESTS, text, text.indexOf('groupBy'))).toMatchObject({
      title: 'groupBy',
      description: expect.stringContaining('groups adjacent rows'),
    });
    expect(describeAt(REQUESTS, text, text.indexOf('auto'))).toBeNull();
    expect(describeAt(REQUESTS, 'bogus: 1\n', 1)).toBeNull();
  });

  it('says a type in words', () => {
    expect(describeType(REQUESTS, schemasAt(REQUESTS, ['fillDown'])[0])).toBe('true or false or a list of strings');
    expect(describeType(REQUESTS, schemasAt(REQUESTS, ['xlsx', 'sheet'])[0])).toBe('a string or an integer above 0');
  });
});

describe('createChecker: the marks', () => {
  const check = createChecker(REQUESTS);
  const marks = (text: string) => check(text).map((p) => ({ text: text.slice(p.from, p.to), message: p.message, source: p.source }));

  it('passes every shipped requests mapping', () => {
    for (const name of fs.readdirSync(path.join(REPO, 'config/mappings'))) {
      const text = fs.readFileSync(path.join(REPO, 'config/mappings', name), 'utf8');
      if (text.includes('mapping-requests.schema.json')) expect(check(text), name).toEqual([]);
    }
  });

  it('puts each schema problem on its key or value, in its own words', () => {
    const text = MAPPING.replace('format: csv', 'format: xls')
      .replace('groupBy: "Номер заявки"', 'groupBy: 5\nformt: csv')
      .replace('  externalId: { column: "Номер заявки" }\n', '')
      .replace('customer.inn: { column: "ИНН" }', 'customer.inn: { column: "", date: true, optinal: true }')
      .replace('csv: { encoding: windows-1251, delimiter: ";"', 'csv: { encoding: windows-1251, delimiter: ";;"');
    expect(marks(text)).toEqual([
      { text: 'request', message: 'missing required key "externalId"', source: 'schema' },
      { text: 'xls', message: 'expected one of csv, json, ndjson, xlsx, xml, got "xls"', source: 'schema' },
      { text: '";;"', message: 'must be a single character', source: 'schema' },
      { text: '5', message: 'expected a string, got the number 5', source: 'schema' },
      { text: '""', message: 'must not be empty', source: 'schema' },
      { text: 'true', message: 'expected a string, got true', source: 'schema' },
      { text: 'optinal', message: 'unknown key "optinal" (did you mean optional?)', source: 'schema' },
      { text: 'formt', message: 'unknown key "formt" (did you mean format?)', source: 'schema' },
    ]);
  });

  it('says a failed anyOf once, with its branches', () => {
    expect(marks('request: {}\nitems: {}\npreset: commerceml\nxlsx: { sheet: 0 }\n')).toEqual([
      { text: '0', message: 'expected a string or an integer above 0, got the number 0', source: 'schema' },
    ]);
  });

  it('names the keys a mapping takes when an unknown one is nothing like them', () => {
    expect(marks('preset: commerceml\nskipRows: { zzzzzz: 1 }\n')).toEqual([
      { text: 'zzzzzz', message: 'unknown key "zzzzzz" (known here: blank, totals)', source: 'schema' },
    ]);
  });

  it('underlines a YAML syntax error where the daemon reports it, in the words the console says it with, and checks nothing else', () => {
    const text = MAPPING.replace('groupBy: "Номер заявки"', 'groupBy: { column: "Номер заявки"\nformt: 1');
    const found = check(text);
    expect(found).toEqual([
      {
        from: expect.any(Number),
        to: expect.any(Number),
        message: 'is indented wrongly: keys of one mapping stand in one column',
        source: 'YAML',
      },
    ]);
    const before = text.slice(0, found[0]!.from).split('\n');
    let daemon: unknown;
    try {
      parseYamlBytes(Buffer.from(text), 'mapping.yaml', 'mapping');
    } catch (error) {
      daemon = (error as ConnectorError).details.problems;
    }
    expect(daemon).toEqual([expect.objectContaining({ line: before.length, column: before[before.length - 1]!.length + 1, text: { key: 'yamlBadIndent' } })]);
  });

  it('wants a mapping at the top, and checks only the YAML without a schema', () => {
    expect(marks('- a\n- b\n')).toEqual([{ text: '- a', message: 'must be a YAML mapping (key: value pairs)', source: 'schema' }]);
    expect(createChecker(null)('bogus: 1\n')).toEqual([]);
    expect(createChecker(null)('a: [\n')).toMatchObject([{ source: 'YAML' }]);
  });
});

describe('placeDaemonProblems: the preview’s problems as marks', () => {
  const place = (text: string, problems: Parameters<typeof placeDaemonProblems>[1], own = createChecker(REQUESTS)(text)) =>
    placeDaemonProblems(text, problems, own).map((p) => ({ text: text.slice(p.from, p.to), message: p.message, source: p.source }));
  const problem = (path: string, message: string, line: number | null = null, column: number | null = null) => ({ path, message, line, column });

  it('puts a problem the schema cannot see on its key, through keys that hold dots', () => {
    const text = MAPPING.replace('customer.inn: { column: "ИНН" }', 'customer.inn: { column: "ИНН", const: "1" }');
    const message = 'needs exactly one of column, path, const, template, parts or counter (has column, const)';
    expect(place(text, [problem('request.customer.inn', message)])).toEqual([{ text: 'customer.inn', message, source: 'daemon' }]);
  });

  it('puts a problem of a key the text lacks, or of the file, on its first line of content', () => {
    expect(place('# c\nformat: csv\nrequest: {}\n', [problem('groupBy', 'is required'), problem('kind', 'this is a requests mapping')])).toEqual([
      { text: 'format: csv', message: 'is required', source: 'daemon' },
    ]);
  });

  it('leaves out what the editor already marks: a syntax error, a key the schema marked', () => {
    const broken = 'a: [\nb: 1\n';
    expect(place(broken, [problem('', 'Flow sequence … at line 2, column 1', 2, 1)])).toEqual([]);
    expect(place(broken, [problem('', 'at line 2, column 1', 2, 1)], [])).toEqual([{ text: 'b', message: 'at line 2, column 1', source: 'daemon' }]);
    const typo = 'preset: commerceml\nformt: csv\n';
    expect(createChecker(REQUESTS)(typo)).toHaveLength(1);
    expect(place(typo, [problem('formt', 'unknown key')])).toEqual([]);
    // A wrong type: the schema marked the value; the daemon's `is required` does not join it on the key.
    expect(place('preset: commerceml\ngroupBy: 5\n', [problem('groupBy', 'is required')])).toEqual([]);
  });
});
