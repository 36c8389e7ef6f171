/**
 * Hostile and broken XML: DTDs (XXE, billion laughs), documents that are not well-formed or cut
 * short, nesting, texts and records past their limits (streamed, never built whole), encodings
 * that lie, and a reader stopped by its consumer or its signal.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { readXmlRecords } from '../../../../src/mapping/readers/xml-reader.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import { specOf, split, writeInput } from '../../../helpers/mapping-fixtures.js';
import { chunksOf, CountingSource, readAll, readError, readSpec, repeated } from '../../../helpers/xml.js';

const FUZZ_CORPUS = path.join(import.meta.dirname, '../../../fuzz');

const MiB = 1024 * 1024;
/** The most a refused stream may have handed out past the limit it crossed: two reads and a slice of slack. */
const SLACK = MiB;
const RECORD = "КИ/Документ[ХозОперация='Заказ товара']";

/** A requests mapping for XML with the smallest set of paths, for whole-file tests through mapFile. */
const xmlMapping = (patch: Record<string, unknown> = {}) =>
  specOf({
    kind: 'requests',
    format: 'xml',
    record: 'КИ/Документ',
    lines: 'Товары/Товар',
    request: {
      externalId: { path: 'Номер' },
      'customer.inn': { path: 'ИНН' },
      'customer.name': { path: 'Имя' },
      'contact.name': { const: 'Отдел закупок' },
      'contact.email': { const: 'zakupki@example.ru' },
      'delivery.city': { const: 'Москва' },
      'delivery.address': { const: 'ул. Ленина, 1' },
      'delivery.desiredDate': { const: '2030-03-15' },
    },
    items: { lineId: { counter: true }, name: { path: 'Наименование' }, quantity: { path: 'Количество' }, unit: { const: 'шт' } },
    ...patch,
  });

describe('DOCTYPE', () => {
  it('an external entity (XXE) is refused before anything is read, and nothing of it reaches the report', async () => {
    await withTempDir(async (dir) => {
      const secret = path.join(dir, 'secret.txt');
      fs.writeFileSync(secret, 'TOP-SECRET-4242');
      const doc = `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE КИ [<!ENTITY xxe SYSTEM "file://${secret}">]>\n<КИ><Документ><Номер>&xxe;</Номер><ИНН>7707083893</ИНН><Имя>x</Имя><Товары><Товар><Наименование>&xxe;</Наименование><Количество>1</Количество></Товар></Товары></Документ></КИ>`;
      const { items, problems } = await split(writeInput(dir, 'orders.xml', doc), xmlMapping());
      expect(items).toHaveLength(1);
      expect(problems).toEqual([
        {
          row: null,
          line: 2,
          column: 1,
          field: null,
          code: 'XML_DTD_REFUSED',
          message:
            'orders.xml: carries a DOCTYPE declaration (line 2, column 1); files with a DTD are refused, their entities never fetched or expanded: export it without one',
          text: { key: 'xmlDoctype', params: { line: 2, column: 1 } },
        },
      ]);
      expect(JSON.stringify(items)).not.toMatch(/SECRET|secret|xxe|ENTITY|file:/);
    });
  });

  it('billion laughs is refused at its declaration: no entity is ever expanded, no record read', async () => {
    const lol = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`)];
    const doc = `<?xml version="1.0"?>\n<!DOCTYPE КИ [\n${lol.join('\n')}\n]>\n<КИ><Документ><Номер>&lol9;</Номер></Документ></КИ>`;
    const error = await readError(chunksOf(doc), readSpec('КИ/Документ'), 'XML_DTD_REFUSED');
    expect(error.details).toEqual({ line: 2, column: 1 });
    expect(error.message).not.toMatch(/lol/);
  });

  it('any DOCTYPE is refused: without a subset, in lower case, inside the root, and one too long to wait for', async () => {
    expect((await readError(chunksOf('<!DOCTYPE КИ SYSTEM "ki.dtd"><КИ/>'), readSpec('КИ/Документ'), 'XML_DTD_REFUSED')).details).toEqual({
      line: 1,
      column: 1,
    });
    await readError(chunksOf('<!doctype КИ><КИ/>'), readSpec('КИ/Документ'), 'XML_DTD_REFUSED');
    // Right after a comment too, placed at its `<` (saxes tells of a comment before its `>`).
    for (const size of [1, 7, 12, 13, 14, 64 * 1024]) {
      const error = await readError(chunksOf('<!--c--><!doctype КИ><КИ/>', size), readSpec('КИ/Документ'), 'XML_DTD_REFUSED');
      expect(error.details).toEqual({ line: 1, column: 9 });
    }
    expect((await readError(chunksOf('<КИ>\n  <!DOCTYPE КИ>\n</КИ>'), readSpec('КИ/Документ'), 'XML_DTD_REFUSED')).details).toEqual({ line: 2, column: 3 });
    const huge = new CountingSource(() => ['<?xml version="1.0"?>\n<!DOCTYPE КИ [\n', ...repeated('<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaa">\n', 20_000_000)]);
    await readError(huge.chunks(), readSpec('КИ/Документ'), 'XML_DTD_REFUSED');
    expect(huge.produced).toBeLessThan(4 * MiB + SLACK);
    expect(huge.finished).toBe(true);
  });
});

describe('not well-formed', () => {
  const cases: [string, string, string][] = [
    ['a mismatched end tag', '<КИ>\n  <Документ></Документы>\n</КИ>', 'is not well-formed XML at line 2, column 24: unexpected close tag'],
    ['an unquoted attribute', '<КИ>\n<Документ Ид=5/></КИ>', 'is not well-formed XML at line 2, column 14: unquoted attribute value'],
    ['an undefined entity', '<КИ><Документ>&nbsp;</Документ></КИ>', 'is not well-formed XML at line 1, column 20: undefined entity'],
    ['a second root', '<КИ/>\n<КИ/>', 'is not well-formed XML at line 2, column 4: documents may contain only one root'],
    ['text after the root', '<КИ/>\nхвост', 'is not well-formed XML at line 1, column 6: text data outside of root node'],
    ['no root at all', '<?xml version="1.0"?>\n', 'is not well-formed XML at line 2, column 1: document must contain a root element'],
  ];
  it.each(cases)('%s is XML_MALFORMED with its line and column', async (_name, doc, message) => {
    const error = await readError(chunksOf(doc), readSpec('КИ/Документ'), 'XML_MALFORMED');
    expect(error.message).toBe(message);
    const [, line, column] = /line (\d+), column (\d+)/.exec(message)!;
    expect(error.details).toEqual({ line: Number(line), column: Number(column) });
  });

  it('a DOCTYPE inside a tag name is a bad tag name, however the bytes arrive (fuzz finding 33b6ec07416a11b8)', async () => {
    const doc = '<КИ>\n  <Количество<!DOCTYPE a [<!ENTITY x "y">]>>4</Количество>\n</КИ>';
    const messages = new Set<string>();
    for (const size of [1, 2, 3, 5, 8, 13, 21, 22, 23, 24, 25, 26, 64 * 1024]) {
      messages.add((await readError(chunksOf(doc, size), readSpec('КИ/Документ'), 'XML_MALFORMED')).message);
    }
    expect([...messages]).toEqual(['is not well-formed XML at line 2, column 14: disallowed character in tag name']);
  });

  it('text outside the root element is placed where it begins, however the bytes arrive (fuzz finding 0684c621e4fd7c95)', async () => {
    // The reader takes the first kilobytes whole (the declaration's encoding): a comment moves
    // the text past them, where the chunks cut it.
    const pad = `<!--${'x'.repeat(6000)}-->`;
    const at = (column: number) => `line 1, column ${pad.length + column}`;
    const cases: [string | Buffer, string][] = [
      // Text after the declaration, before the root (the finding: a CR, then text).
      [`<?xml version="1.0"?>${pad}\r87%и0 more text\n<КИ><Документ/></КИ>`, at(22)],
      // The same, ended by an entity rather than by the root's `<`.
      [`<?xml version="1.0"?>${pad}\n  junk text &amp; more\n<КИ/>`, at(22)],
      // Text after the root.
      [`<КИ><Документ/></КИ>${pad}\n\n  trailing text that goes on and on`, at(21)],
      // A CDATA section before the root, after some blank lines: at its `<`.
      [`<?xml version="1.0"?>${pad}\n\n<![CDATA[x]]><КИ/>`, 'line 3, column 1'],
      // The finding itself, in windows-1251.
      [fs.readFileSync(path.join(FUZZ_CORPUS, 'xml/finding-0684c621e4fd7c95')), 'line 1, column 46'],
      // A later one: read whole, saxes reached a bad character in the root's name before it told of the text.
      [fs.readFileSync(path.join(FUZZ_CORPUS, 'xml/finding-8a4ef9fdc57afbb3')), 'line 1, column 46'],
      // Text after the root behind a blank run longer than what the reader keeps of it, then a
      // character XML forbids: the text first, wherever the blanks were cut (an EnterpriseData finding).
      [`<КИ><Документ/></КИ>${pad}${' '.repeat(40)}\nPK\u0003\u0004`, at(21)],
    ];
    for (const [doc, place] of cases) {
      const record = Buffer.isBuffer(doc) ? 'КоммерческаяИнформация/Документ' : 'КИ/Документ';
      const messages = new Set<string>();
      for (const size of [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 1000, 4096, 6040, 6050, 64 * 1024]) {
        messages.add((await readError(chunksOf(doc, size), readSpec(record), 'XML_MALFORMED')).message);
      }
      expect([...messages], String(doc).slice(0, 40)).toEqual([`is not well-formed XML at ${place}: text data outside of root node`]);
    }
  });

  it('a file cut short names the element it ends inside and its record', async () => {
    const doc = '<?xml version="1.0"?>\n<КИ>\n  <Документ>\n    <Номер>7</Номер>\n    <Товары>\n      <Товар><Наименование>Бума';
    const error = await readError(chunksOf(doc), readSpec('КИ/Документ'), 'XML_MALFORMED');
    expect(error.message).toBe(
      'ends inside <Наименование> opened at line 6, column 14, within the record <Документ> opened at line 3, column 3: the file is cut short (line 6, column 32)',
    );
    expect(error.details).toEqual({ line: 6, column: 32 });
    const outside = await readError(chunksOf('<КИ>\n  <Документ/>\n  <Каталог'), readSpec('КИ/Документ'), 'XML_MALFORMED');
    expect(outside.message).toBe('ends inside <КИ> opened at line 1, column 1: the file is cut short (line 3, column 11)');
  });

  it('through mapFile, is one file-level problem saying where', async () => {
    await withTempDir(async (dir) => {
      const file = writeInput(dir, 'orders.xml', '<КИ>\n<Документ><Номер>1</Номер>\n</КИ>');
      const { items, problems } = await split(file, xmlMapping());
      expect(items).toHaveLength(1);
      expect(problems).toEqual([
        {
          row: null,
          line: 3,
          column: 5,
          field: null,
          code: 'XML_MALFORMED',
          message: 'orders.xml: is not well-formed XML at line 3, column 5: unexpected close tag',
          text: { key: 'xmlMalformed', params: { line: 3, column: 5, said: 'unexpected close tag' } },
        },
      ]);
    });
  });
});

describe('limits', () => {
  it('nesting past xml.maxDepth is refused as soon as it happens, in or out of a record', async () => {
    const deep = new CountingSource(() => repeated('<a>', 100_000_000));
    const error = await readError(deep.chunks(), readSpec('a/b'), 'XML_LIMIT_EXCEEDED');
    expect(error.message).toBe('nests elements deeper than xml.maxDepth (64): <a> at line 1, column 193 is at depth 65');
    expect(error.details).toEqual({ line: 1, column: 193 });
    expect(deep.produced).toBeLessThanOrEqual(256 * 1024);
    const inRecord = await readError(chunksOf('<r><d><x><y/></x></d></r>'), readSpec('r/d', '.', { maxDepth: 3 }), 'XML_LIMIT_EXCEEDED');
    expect(inRecord.message).toContain('<y> at line 1, column 10 is at depth 4');
    expect(await readAll(chunksOf('<r><d><x/></d></r>'), readSpec('r/d', '.', { maxDepth: 3 }))).toHaveLength(1);
  });

  it('a 300 MB text node is refused after reading little more than xml.maxTextBytes, in a record or not', async () => {
    for (const record of ['КИ/Документ', 'КИ/Каталог']) {
      const text = new CountingSource(() => ['<КИ><Документ><Комментарий>', ...repeated('x', 300 * MiB)]);
      const error = await readError(text.chunks(), readSpec(record), 'XML_LIMIT_EXCEEDED');
      expect(error.message).toBe('holds a text longer than xml.maxTextBytes (4194304 bytes) in <Комментарий> opened at line 1, column 15');
      expect(error.details).toEqual({ line: 1, column: 15 });
      expect(text.produced).toBeLessThan(4 * MiB + SLACK);
      expect(text.finished).toBe(true);
    }
  });

  it('texts are measured in UTF-8 bytes, one element at a time, kept or not', async () => {
    const doc = (letters: number) => `<r><d><n>${'я'.repeat(letters)}</n></d></r>`;
    for (const record of ['r/d', 'r/x']) {
      expect(await readAll(chunksOf(doc(500)), readSpec(record, '.', { maxTextBytes: 1000 }))).toHaveLength(record === 'r/d' ? 1 : 0);
      const error = await readError(chunksOf(doc(501)), readSpec(record, '.', { maxTextBytes: 1000 }), 'XML_LIMIT_EXCEEDED');
      expect(error.message).toBe('holds a text longer than xml.maxTextBytes (1000 bytes) in <n> opened at line 1, column 7');
    }
  });

  it('the text of one kept element is counted whole, across comments and CDATA', async () => {
    const doc = `<r><d><n>${'x'.repeat(60)}<!-- -->${'x'.repeat(30)}<![CDATA[${'x'.repeat(11)}]]></n></d></r>`;
    await readError(chunksOf(doc), readSpec('r/d', '.', { maxTextBytes: 100 }), 'XML_LIMIT_EXCEEDED');
    expect(await readAll(chunksOf(doc), readSpec('r/d', '.', { maxTextBytes: 101 }))).toHaveLength(1);
  });

  it('an attribute value, or the attributes of one start tag together, past xml.maxTextBytes are refused', async () => {
    const one = await readError(chunksOf(`<r><d a="${'x'.repeat(101)}"/></r>`), readSpec('r/d', '.', { maxTextBytes: 100 }), 'XML_LIMIT_EXCEEDED');
    expect(one.message).toBe('holds an attribute value longer than xml.maxTextBytes (100 bytes) in <d> opened at line 1, column 4');
    const all = await readError(
      chunksOf(`<r><d a="${'x'.repeat(60)}" b="${'x'.repeat(60)}"/></r>`),
      readSpec('r/d', '.', { maxTextBytes: 100 }),
      'XML_LIMIT_EXCEEDED',
    );
    expect(all.message).toBe('holds attributes longer than xml.maxTextBytes (100 bytes) in <d> opened at line 1, column 4');
    const endless = new CountingSource(() => ['<r><d a="', ...repeated('x', 300 * MiB)]);
    expect((await readError(endless.chunks(), readSpec('r/d'), 'XML_LIMIT_EXCEEDED')).message).toContain(
      'holds an attribute value longer than xml.maxTextBytes',
    );
    expect(endless.produced).toBeLessThan(4 * MiB + SLACK);
  });

  it('a comment or CDATA section too long to wait for is refused while it grows', async () => {
    for (const [open, what] of [
      ['<!--', 'a comment'],
      ['<![CDATA[', 'a CDATA section'],
    ]) {
      const source = new CountingSource(() => [`<r>\n  <d>${open}`, ...repeated('<x> ', 80 * MiB)]);
      const error = await readError(source.chunks(), readSpec('r/d'), 'XML_LIMIT_EXCEEDED');
      expect(error.message).toBe(`holds ${what} longer than xml.maxTextBytes (4194304 bytes) in <d> opened at line 2, column 3`);
      expect(source.produced).toBeLessThan(4 * MiB + SLACK);
    }
  });

  it('a record past xml.maxRecordBytes is refused while it grows, counted in UTF-8 bytes from < to >', async () => {
    const lines = new CountingSource(() => ['<КИ>\n<Документ><Товары>', ...repeated('<Товар><Наименование>x</Наименование></Товар>', 10_000_000)]);
    const error = await readError(lines.chunks(), readSpec('КИ/Документ'), 'XML_LIMIT_EXCEEDED');
    expect(error.message).toBe('holds a record larger than xml.maxRecordBytes (16777216 bytes): <Документ> opened at line 2, column 1');
    expect(error.details).toEqual({ line: 2, column: 1 });
    expect(lines.produced).toBeLessThan(16 * MiB + SLACK);
    // `<d>ёё</d>` is 11 bytes, `<x:d xmlns:x="u">ёё</x:d>` 27.
    expect(await readAll(chunksOf('<r><d>ёё</d></r>'), readSpec('r/d', '.', { maxRecordBytes: 11 }))).toHaveLength(1);
    await readError(chunksOf('<r><d>ёё</d></r>'), readSpec('r/d', '.', { maxRecordBytes: 10 }), 'XML_LIMIT_EXCEEDED');
    await readError(chunksOf('<r><x:d xmlns:x="u">ёё</x:d></r>'), readSpec('r/d', '.', { maxRecordBytes: 26 }), 'XML_LIMIT_EXCEEDED');
    expect(await readAll(chunksOf('<r><x:d xmlns:x="u">ёё</x:d></r>'), readSpec('r/d', '.', { maxRecordBytes: 27 }))).toHaveLength(1);
  });
});

describe('encodings that lie', () => {
  it('a UTF-8 declaration over windows-1251 bytes is XML_ENCODING_MISMATCH naming the byte, through mapFile', async () => {
    await withTempDir(async (dir) => {
      const text = '<?xml version="1.0" encoding="UTF-8"?>\n<КИ><Документ><Номер>1</Номер></Документ></КИ>';
      const file = writeInput(dir, 'orders.xml', iconv.encode(text, 'win1251'));
      const { problems } = await split(file, xmlMapping());
      expect(problems).toEqual([
        {
          row: null,
          field: null,
          code: 'XML_ENCODING_MISMATCH',
          message:
            'orders.xml: is not valid UTF-8 (an invalid UTF-8 sequence at byte 40), but its declaration says UTF-8: save it as UTF-8, or declare encoding="windows-1251" if that is what it is',
          text: { key: 'xmlNotUtf8', params: { byte: 40 } },
        },
      ]);
    });
  });

  it('UTF-16 is refused, saying what to save it as', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0" encoding="UTF-16"?><КИ/>', 'utf16le')]);
    const error = await readError(chunksOf(bytes), readSpec('КИ/Документ'), 'FILE_FORMAT_UNSUPPORTED');
    expect(error.message).toBe('is UTF-16 (it starts with a UTF-16 byte order mark): save it as UTF-8 or windows-1251');
  });
});

describe('stopping', () => {
  const documents = () => ['<КИ>', ...repeated('<Документ><ХозОперация>Заказ товара</ХозОперация></Документ>', 1_000_000, 64 * 1024), '</КИ>'];

  it('stops reading when the consumer stops', async () => {
    const source = new CountingSource(documents);
    for await (const record of readXmlRecords(source.chunks(), readSpec(RECORD))) {
      expect(record.place.row).toBe(1);
      break;
    }
    expect(source.finished).toBe(true);
    expect(source.produced).toBeLessThanOrEqual(64 * 1024 + 4);
  });

  it('throws the signal’s reason when aborted, and lets the source go', async () => {
    const source = new CountingSource(documents);
    const controller = new AbortController();
    const rows: number[] = [];
    const reading = (async () => {
      for await (const record of readXmlRecords(source.chunks(), readSpec(RECORD), controller.signal)) {
        rows.push(record.place.row);
        if (rows.length === 3) controller.abort(new Error('stopping'));
      }
    })();
    await expect(reading).rejects.toThrow('stopping');
    expect(source.finished).toBe(true);
    expect(source.produced).toBeLessThan(4 * 64 * 1024);
  });
});
