/** Which encoding an XML file is read in, and every way its bytes can disagree with it. */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../../src/errors.js';
import { chooseXmlEncoding, firstInvalidUtf8, XmlDecoder, type XmlEncodingSetting } from '../../../../src/mapping/readers/xml/xml-decoder.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const decl = (encoding?: string, quote = '"') =>
  encoding === undefined ? '<?xml version="1.0"?>' : `<?xml version=${quote}1.0${quote} encoding=${quote}${encoding}${quote}?>`;
const ascii = (text: string) => Buffer.from(text, 'latin1');

function decodeAll(bytes: Buffer, setting: XmlEncodingSetting = 'auto', chunkBytes = 5): string {
  const decoder = new XmlDecoder(setting);
  let text = '';
  for (let at = 0; at < bytes.length; at += chunkBytes) text += decoder.write(bytes.subarray(at, at + chunkBytes));
  text += decoder.end();
  // A mismatch found at the end is raised once the text before it is taken, as the reader does.
  decoder.close();
  return text;
}

function failure(run: () => unknown): ConnectorError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConnectorError) return error;
    throw error;
  }
  throw new Error('expected a ConnectorError');
}

describe('chooseXmlEncoding (auto)', () => {
  const cases: [string, Buffer, string, string][] = [
    ['no declaration, no mark: UTF-8', ascii('<a/>'), 'utf-8', 'default'],
    ['a declaration without encoding: UTF-8', ascii(`${decl()}<a/>`), 'utf-8', 'default'],
    ['windows-1251', ascii(`${decl('windows-1251')}<a/>`), 'windows-1251', 'declaration'],
    ['WINDOWS-1251, single quotes', ascii(`${decl('WINDOWS-1251', "'")}<a/>`), 'windows-1251', 'declaration'],
    ['cp1251', ascii(`${decl('cp1251')}<a/>`), 'windows-1251', 'declaration'],
    ['UTF-8', ascii(`${decl('UTF-8')}<a/>`), 'utf-8', 'declaration'],
    ['utf8', ascii(`${decl('utf8')}<a/>`), 'utf-8', 'declaration'],
    ['a UTF-8 mark', Buffer.concat([BOM, ascii('<a/>')]), 'utf-8', 'bom'],
    ['a UTF-8 mark and a UTF-8 declaration', Buffer.concat([BOM, ascii(`${decl('utf-8')}<a/>`)]), 'utf-8', 'bom'],
  ];
  it.each(cases)('%s', (_name, head, encoding, source) => {
    expect(chooseXmlEncoding(head, 'auto')).toMatchObject({ encoding, source });
  });

  it('refuses UTF-16, with or without its mark, and any other declared encoding', () => {
    for (const head of [Buffer.from([0xff, 0xfe, 0x3c, 0x00]), Buffer.from([0xfe, 0xff, 0x00, 0x3c]), Buffer.from('<?xml', 'utf16le')]) {
      const error = failure(() => chooseXmlEncoding(head, 'auto'));
      expect([error.code, error.message]).toEqual(['FILE_FORMAT_UNSUPPORTED', expect.stringMatching(/^is UTF-16 .*: save it as UTF-8 or windows-1251$/)]);
    }
    const koi = failure(() => chooseXmlEncoding(ascii(`${decl('koi8-r')}<a/>`), 'auto'));
    expect([koi.code, koi.message]).toEqual([
      'FILE_FORMAT_UNSUPPORTED',
      expect.stringContaining('declares encoding="koi8-r", which is not read: save it as UTF-8 or windows-1251'),
    ]);
  });

  it('refuses a UTF-8 mark before a windows-1251 declaration', () => {
    const error = failure(() => chooseXmlEncoding(Buffer.concat([BOM, ascii(`${decl('windows-1251')}<a/>`)]), 'auto'));
    expect([error.code, error.message]).toEqual([
      'XML_ENCODING_MISMATCH',
      'starts with a UTF-8 byte order mark, but its declaration says encoding="windows-1251"',
    ]);
  });
});

describe('chooseXmlEncoding (xml.encoding set)', () => {
  it('wins over the declaration, and over no declaration', () => {
    expect(chooseXmlEncoding(ascii(`${decl('utf-8')}<a/>`), 'windows-1251')).toMatchObject({ encoding: 'windows-1251', source: 'setting' });
    expect(chooseXmlEncoding(ascii(`${decl('koi8-r')}<a/>`), 'utf-8')).toMatchObject({ encoding: 'utf-8', source: 'setting' });
    expect(chooseXmlEncoding(Buffer.concat([BOM, ascii('<a/>')]), 'utf-8')).toMatchObject({ encoding: 'utf-8', bomBytes: 3 });
  });

  it('still refuses a UTF-8 mark when set to windows-1251, and UTF-16', () => {
    expect(failure(() => chooseXmlEncoding(Buffer.concat([BOM, ascii('<a/>')]), 'windows-1251')).code).toBe('XML_ENCODING_MISMATCH');
    expect(failure(() => chooseXmlEncoding(Buffer.from([0xff, 0xfe, 0x3c, 0x00]), 'utf-8')).code).toBe('FILE_FORMAT_UNSUPPORTED');
  });
});

describe('XmlDecoder', () => {
  const text = `${decl('windows-1251')}\n<Документ>Заказ № 5 — «срочно»</Документ>`;

  it('decodes windows-1251 as declared, and UTF-8 cut anywhere, dropping the mark', () => {
    expect(decodeAll(iconv.encode(text, 'win1251'))).toBe(text);
    const utf8 = `${decl('utf-8')}\n<Документ>Заказ 😀 №5</Документ>`;
    for (const size of [1, 2, 3, 5, 4096]) expect(decodeAll(Buffer.concat([BOM, Buffer.from(utf8)]), 'auto', size)).toBe(utf8);
  });

  it('names the byte of the first invalid sequence, counting the mark, in any chunk', () => {
    const head = Buffer.concat([BOM, Buffer.from(`${decl('UTF-8')}\n<a>${'я'.repeat(3000)}`)]);
    const bytes = Buffer.concat([head, iconv.encode('Заказ</a>', 'win1251')]);
    for (const size of [1, 7, 1024, 100_000]) {
      const error = failure(() => decodeAll(bytes, 'auto', size));
      expect(error.code).toBe('XML_ENCODING_MISMATCH');
      expect(error.details).toEqual({ byte: head.length });
      expect(error.message).toBe(
        `is not valid UTF-8 (an invalid UTF-8 sequence at byte ${head.length}), but it starts with a UTF-8 byte order mark: save it as UTF-8, or declare encoding="windows-1251" if that is what it is`,
      );
    }
  });

  it('says why the file was read as UTF-8', () => {
    const bad = (prefix: string) => Buffer.concat([ascii(prefix), Buffer.from([0xc7, 0xe0])]);
    expect(failure(() => decodeAll(bad(`${decl('utf-8')}<a>`))).message).toContain('but its declaration says UTF-8');
    expect(failure(() => decodeAll(bad('<a>'))).message).toContain('but it declares no encoding, so it is read as UTF-8');
    expect(failure(() => decodeAll(bad(`${decl('windows-1251')}<a>`), 'utf-8')).message).toContain('but xml.encoding is utf-8');
  });

  it('refuses a file that ends inside a character', () => {
    const bytes = Buffer.concat([Buffer.from('<a>я'), Buffer.from([0xd1])]);
    const error = failure(() => decodeAll(bytes));
    expect([error.code, error.details]).toEqual(['XML_ENCODING_MISMATCH', { byte: 5 }]);
    expect(error.message).toContain('the file ends inside a character at byte 5');
  });

  it('refuses UTF-8 bytes under a windows-1251 declaration, naming the first non-ASCII byte', () => {
    const bytes = Buffer.from(text, 'utf8');
    const at = bytes.indexOf(Buffer.from('Д'));
    const error = failure(() => decodeAll(bytes, 'auto', 4096));
    expect([error.code, error.details]).toEqual(['XML_ENCODING_MISMATCH', { byte: at }]);
    expect(error.message).toBe(`declares encoding="windows-1251", but its bytes are UTF-8 (from byte ${at}): fix the declaration, or set xml.encoding: utf-8`);
  });

  it('reads what xml.encoding says when it overrides a wrong declaration', () => {
    expect(decodeAll(Buffer.from(text, 'utf8'), 'utf-8')).toBe(text);
    const utf8Declared = `${decl('utf-8')}<a>Заказ</a>`;
    expect(decodeAll(iconv.encode(utf8Declared, 'win1251'), 'windows-1251')).toBe(utf8Declared);
  });
});

describe('firstInvalidUtf8', () => {
  const cases: [string, number[], number][] = [
    ['a stray continuation byte', [0x61, 0x80], 1],
    ['an overlong two-byte form', [0x61, 0xc0, 0xaf], 1],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf], 0],
    ['a surrogate', [0x61, 0x62, 0xed, 0xa0, 0x80], 2],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a lead byte without its continuation', [0xd0, 0x41], 0],
    ['a sequence cut at the end', [0x61, 0xe2, 0x82], 1],
    ['valid text', [0x61, 0xd0, 0xaf, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], 10],
  ];
  it.each(cases)('%s', (_name, bytes, offset) => {
    expect(firstInvalidUtf8(Buffer.from(bytes))).toBe(offset);
  });
});
