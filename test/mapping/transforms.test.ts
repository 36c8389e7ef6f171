import { describe, expect, it } from 'vitest';
import { compileField, FieldFailure, OMIT, type SourceGetter } from '../../src/mapping/compile-field.js';
import { checkDateFormat } from '../../src/config/date-format.js';
import { compileDateParser } from '../../src/mapping/parse-date.js';
import { parseNumber } from '../../src/mapping/parse-number.js';
import { fieldSpecSchema } from '../../src/config/mapping-schema.js';

describe('parseNumber', () => {
  it.each([
    ['1 234,50', true, 1234.5],
    ['1\u00a0234,50', true, 1234.5], // non-breaking space
    ['1\u2009234,50', true, 1234.5], // thin space
    ['1\u202f234', true, 1234], // narrow no-break space
    ['1.234,50', true, 1234.5],
    ['12.5', true, 12.5], // a dot alone still reads as decimal point
    ['-3', true, -3],
    ['0,05', true, 0.05],
    ['1,234.50', false, 1234.5],
    ['1234.50', false, 1234.5],
    ['1 000', false, 1000],
  ])('%j (decimalComma %s) → %d', (text, decimalComma, expected) => {
    expect(parseNumber(text, decimalComma)).toBe(expected);
  });

  it.each([['abc'], ['1,2,3'], [''], ['1e5x'], ['--1'], ['12 кг'], ['1.23,5'], ['12.34.567,8']])('%j is not a number', (text) => {
    expect(parseNumber(text, true)).toBeUndefined();
  });

  it.each([['1,5'], ['12,50'], ['1,2,3'], ['1,23'], ['1234,567'], [',5']])(
    '%j without decimalComma is not a number: a comma outside the thousands groups is not read away',
    (text) => {
      expect(parseNumber(text, false)).toBeUndefined();
    },
  );

  it.each([
    ['1,234', 1234],
    ['12,345,678.5', 12345678.5],
    ['-1,000', -1000],
  ])('%j without decimalComma reads its thousands commas → %d', (text, expected) => {
    expect(parseNumber(text, false)).toBe(expected);
  });
});

describe('dates', () => {
  const ddmmyyyy = compileDateParser('DD.MM.YYYY');
  it.each([
    ['15.03.2027', '2027-03-15'],
    ['1.3.2027', '2027-03-01'],
    ['29.02.2028', '2028-02-29'], // leap year
    ['15.03.2027 0:00:00', '2027-03-15'], // 1C appends a time
    ['2027-03-15', '2027-03-15'], // ISO passes through
    ['2027-03-15 14:30:00', '2027-03-15'], // a sheet's date-time cell
  ])('DD.MM.YYYY reads %s as %s', (text, iso) => {
    expect(ddmmyyyy(text)).toBe(iso);
  });

  it.each([['31.02.2027'], ['29.02.2027'], ['32.01.2027'], ['15.13.2027'], ['15/03/2027'], ['2027-02-30'], ['tomorrow']])('rejects %s', (text) => {
    expect(ddmmyyyy(text)).toBeUndefined();
  });

  it('reads other orders and two-digit years', () => {
    expect(compileDateParser('YY/MM/DD')('27/03/15')).toBe('2027-03-15');
    expect(compileDateParser('MM-DD-YYYY')('03-15-2027')).toBe('2027-03-15');
    expect(compileDateParser(undefined)('15.03.2027')).toBeUndefined();
  });

  it('refuses formats without day, month and year', () => {
    expect(checkDateFormat('DD.MM')?.message).toMatch(/needs the tokens/);
    expect(checkDateFormat('DD.MM')?.text).toEqual({ key: 'dateTokens', params: { format: 'DD.MM' } });
    expect(checkDateFormat('DD.MM.YYYY')).toBeUndefined();
  });
});

describe('field transforms', () => {
  const cell =
    (name: string): SourceGetter<Record<string, unknown>> =>
    (record) =>
      record[name];
  const field = (target: string, spec: Record<string, unknown>, decimalComma = true) =>
    compileField(target, fieldSpecSchema.parse(spec), { decimalComma, source: cell });
  const run = (target: string, spec: Record<string, unknown>, record: Record<string, unknown>) => {
    const compiled = field(target, spec);
    return compiled.convert(compiled.read(record));
  };

  it('one spec compiled for many files gives each its own columns, and the target and decimal comma their own conversion', () => {
    const spec = fieldSpecSchema.parse({ column: 'a' });
    const first = compileField('price', spec, { decimalComma: true, source: cell });
    const other = compileField('price', spec, { decimalComma: true, source: (name) => cell(name === 'a' ? 'b' : name) });
    expect(other.read({ a: '1', b: '2' })).toBe('2');
    expect(first.read({ a: '1', b: '2' })).toBe('1');
    expect(compileField('price', spec, { decimalComma: false, source: cell }).convert('1,5')).toBeInstanceOf(FieldFailure);
    expect(first.convert('1,5')).toBe(1.5);
    // The same spec under a text target is not converted as a number.
    expect(compileField('customer.name', spec, { decimalComma: true, source: cell }).convert('1,5')).toBe('1,5');
  });

  it('trims by default (NBSP included), and can keep spaces', () => {
    expect(run('customer.name', { column: 'a' }, { a: '\u00a0 ООО Ромашка \t' })).toBe('ООО Ромашка');
    expect(run('customer.name', { column: 'a', trim: false }, { a: ' x ' })).toBe(' x ');
  });

  it('upper and lower', () => {
    expect(run('contact.email', { column: 'a', lower: true }, { a: 'Ivanov@Example.RU' })).toBe('ivanov@example.ru');
    expect(run('unit', { column: 'a', upper: true }, { a: 'kg' })).toBe('KG');
  });

  it('number and integer', () => {
    expect(run('price', { column: 'a', number: true }, { a: '1 234,50' })).toBe(1234.5);
    expect(run('quantity', { column: 'a', integer: true }, { a: '12' })).toBe(12);
    const notWhole = run('quantity', { column: 'a', integer: true }, { a: '12,5' });
    expect(notWhole).toBeInstanceOf(FieldFailure);
    expect((notWhole as FieldFailure).code).toBe('FIELD_INVALID');
    expect((run('quantity', { column: 'a' }, { a: 'много' }) as FieldFailure).reason).toBe('is not a number');
  });

  it('numeric target fields are numbers even without number: true', () => {
    expect(run('quantity', { column: 'a' }, { a: '7' })).toBe(7);
    expect(run('confirmedQuantity', { path: 'a' }, { a: 7 })).toBe(7);
  });

  it('date', () => {
    expect(run('delivery.desiredDate', { column: 'a', date: 'DD.MM.YYYY' }, { a: '15.03.2027' })).toBe('2027-03-15');
    const bad = run('delivery.desiredDate', { column: 'a', date: 'DD.MM.YYYY' }, { a: '31.02.2027' }) as FieldFailure;
    expect(bad.reason).toBe('is not a real date in the form DD.MM.YYYY');
  });

  it('a typed number read into a text field gives its digits; an INN stored as a number gets its lost leading zero back', () => {
    expect(run('customer.inn', { column: 'a' }, { a: 274062111 })).toBe('0274062111');
    expect(run('customer.inn', { column: 'a' }, { a: 7707083893 })).toBe('7707083893');
    expect(run('customer.inn', { column: 'a' }, { a: 50100732259 })).toBe('050100732259');
    expect(run('contact.phone', { column: 'a' }, { a: 79161234567 })).toBe('79161234567');
    expect(run('lineId', { column: 'a' }, { a: 3 })).toBe('3');
    // Text keeps what it says: only a number lost a zero.
    expect(run('customer.inn', { column: 'a' }, { a: '274062111' })).toBe('274062111');
  });

  it('a typed number is never read with a decimal comma', () => {
    expect(run('quantity', { column: 'a' }, { a: 1.5 })).toBe(1.5);
    expect(run('price', { column: 'a', number: true }, { a: 1234.5 })).toBe(1234.5);
  });

  it('default and map', () => {
    expect(run('unit', { column: 'a', default: 'шт' }, { a: '  ' })).toBe('шт');
    expect(run('unit', { column: 'a', map: { 'шт.': 'шт' } }, { a: 'шт.' })).toBe('шт');
    expect(run('unit', { column: 'a', map: { 'шт.': 'шт' } }, { a: 'кг' })).toBe('кг');
  });

  it('map looks up its own keys only: a cell named like something every object has passes unchanged', () => {
    for (const cell of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(run('unit', { column: 'a', map: { 'шт.': 'шт' } }, { a: cell }), cell).toBe(cell);
    }
    const quantity = run('quantity', { column: 'a', map: { много: '100' } }, { a: 'valueOf' }) as FieldFailure;
    expect(quantity).toBeInstanceOf(FieldFailure);
    expect(quantity.reason).toBe('is not a number');
  });

  it('const and template', () => {
    expect(run('comment', { const: 'Из 1С' }, {})).toBe('Из 1С');
    expect(run('externalId', { template: '{s}-{n}' }, { s: 'ЗК ', n: '007' })).toBe('ЗК-007');
    expect((run('externalId', { template: '{s}-{n}' }, { s: 'ЗК', n: '' }) as FieldFailure).code).toBe('FIELD_REQUIRED');
  });

  it('optional empty fields are omitted; required empty fields fail', () => {
    expect(run('comment', { column: 'a', optional: true }, { a: '' })).toBe(OMIT);
    expect(run('comment', { column: 'a', optional: true }, {})).toBe(OMIT);
    const missing = run('customer.name', { column: 'a' }, { a: ' ' }) as FieldFailure;
    expect([missing.code, missing.reason]).toEqual(['FIELD_REQUIRED', 'is empty']);
  });

  it('keeps leading zeros of codes and tax ids', () => {
    expect(run('customer.inn', { column: 'a' }, { a: '0274062111' })).toBe('0274062111');
    expect(run('lineId', { column: 'a' }, { a: '001' })).toBe('001');
  });

  it('upper-cases currency codes', () => {
    expect(run('currency', { column: 'a' }, { a: 'rub' })).toBe('RUB');
  });
});
