import { describe, expect, it } from 'vitest';
import { MAX_CELL_CHARS, TRUNCATION_MARKER, cellText, cellXml, columnLetters, escapeXmlAttribute, textCellXml } from '../../src/export/xlsx-cell.js';
import { dateParts } from '../../src/export/format-value.js';

describe('cellText', () => {
  it.each([
    ['C0 controls other than tab, LF and CR', 'a\u0000b\u0001c\u001fd', 'a\uFFFDb\uFFFDc\uFFFDd'],
    ['tab, LF and CR, which XML carries', 'a\tb\nc\rd', 'a\tb\nc\rd'],
    ['a lone high surrogate', 'a\uD83Db', 'a\uFFFDb'],
    ['a lone low surrogate', 'a\uDE00b', 'a\uFFFDb'],
    ['a surrogate pair, which is one character', 'a\uD83D\uDE00b', 'a😀b'],
    ['U+FFFE and U+FFFF', 'a\uFFFEb\uFFFFc', 'a\uFFFDb\uFFFDc'],
    ['DEL and C1 controls, which XML 1.0 allows', 'a\u007fb\u0085c', 'a\u007fb\u0085c'],
  ])('%s', (_what, input, expected) => {
    expect(cellText(input)).toBe(expected);
  });

  it("keeps a value of exactly Excel's 32,767 characters whole", () => {
    const value = 'x'.repeat(MAX_CELL_CHARS);
    expect(cellText(value)).toBe(value);
  });

  it('cuts a longer value to 32,767 characters, ending in the marker', () => {
    const text = cellText('y'.repeat(MAX_CELL_CHARS + 1));
    expect(text).toHaveLength(MAX_CELL_CHARS);
    expect(text.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(text.slice(0, -TRUNCATION_MARKER.length)).toBe('y'.repeat(MAX_CELL_CHARS - TRUNCATION_MARKER.length));
  });

  it('never cuts a surrogate pair in half', () => {
    const keep = MAX_CELL_CHARS - TRUNCATION_MARKER.length;
    const text = cellText('z'.repeat(keep - 1) + '😀'.repeat(10_000));
    expect(text).toBe('z'.repeat(keep - 1) + TRUNCATION_MARKER);
    expect(cellText(text)).toBe(text); // no lone surrogate left for the XML rule to replace
  });
});

describe('textCellXml', () => {
  it('writes an inline string, never a formula, with XML escaped and CR kept as a reference', () => {
    expect(textCellXml('B7', '=1+1 <a & "b">\r\n')).toBe('<c r="B7" t="inlineStr"><is><t xml:space="preserve">=1+1 &lt;a &amp; "b"&gt;&#13;\n</t></is></c>');
  });

  it('escapes text that a spreadsheet would read as an escaped character (_xHHHH_), in either case', () => {
    expect(textCellXml('A1', 'a_x0041_b_x00e9_c_x12_')).toContain('<t xml:space="preserve">a_x005F_x0041_b_x005F_x00e9_c_x12_</t>');
  });

  it('writes nothing for empty text: an absent cell is empty', () => {
    expect(textCellXml('A1', '')).toBe('');
  });
});

describe('cellXml', () => {
  const parts = dateParts('2026-06-12', 'UTC')!;

  it('writes a number as a number, a date as its serial in the given style', () => {
    expect(cellXml('C2', { kind: 'number', text: '-5', value: -5 }, null)).toBe('<c r="C2"><v>-5</v></c>');
    expect(cellXml('D2', { kind: 'date', text: '12.06.2026', parts, pattern: 'DD.MM.YYYY' }, 3)).toBe('<c r="D2" s="3"><v>46185</v></c>');
  });

  it('writes a date as its text when the column has no date format, or the day does not fit', () => {
    expect(cellXml('D2', { kind: 'date', text: '06.2026', parts, pattern: 'MM.YYYY' }, null)).toContain('<t xml:space="preserve">06.2026</t>');
    const old = dateParts('1899-01-01', 'UTC')!;
    expect(cellXml('D2', { kind: 'date', text: '01.01.1899', parts: old, pattern: 'DD.MM.YYYY' }, 1)).toContain('<t xml:space="preserve">01.01.1899</t>');
  });
});

describe('escapeXmlAttribute', () => {
  it('escapes quotes and the whitespace an attribute would flatten', () => {
    expect(escapeXmlAttribute('a"b\'c&d\te\nf')).toBe("a&quot;b'c&amp;d&#9;e&#10;f");
  });
});

describe('columnLetters', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [701, 'ZZ'],
    [702, 'AAA'],
    [16_383, 'XFD'],
  ])('%d → %s', (index, letters) => {
    expect(columnLetters(index)).toBe(letters);
  });
});
