/** What a column's values are, from the values alone. */
import { describe, expect, it } from 'vitest';
import { currencyFit, dateFit, isPhone, numberFit } from '../../../src/mapping/suggest/classify-values.js';

describe('dateFit', () => {
  it.each([
    [['15.03.2027', '1.4.2027'], 'DD.MM.YYYY'],
    [['15.03.2027 0:00:00', '02.04.2027 13:45:00'], 'DD.MM.YYYY'], // 1C appends a time
    [['20/05/2027', '03/06/2027'], 'DD/MM/YYYY'],
    [['03/15/2027', '04/02/2027'], 'MM/DD/YYYY'], // 15 cannot be a month
    [['15.03.27', '01.04.27'], 'DD.MM.YY'],
    [['2027.03.15'], 'YYYY.MM.DD'],
    [['2027-03-15', '2027-04-01'], undefined], // ISO: every mapping reads it, no `date:` needed
  ])('%j → %s', (values, format) => {
    const fit = dateFit(values);
    expect(fit).toBeDefined();
    expect(fit!.format).toBe(format);
    expect(fit!.ambiguousWith).toBeUndefined();
  });

  it('says so when every day is 12 or less: day first is chosen, month first fits as well', () => {
    expect(dateFit(['01/02/2027', '03/04/2027'])).toMatchObject({ format: 'DD/MM/YYYY', ambiguousWith: 'MM/DD/YYYY' });
  });

  it('tolerates one bad value in ten, not more', () => {
    const values = [...Array.from({ length: 9 }, (_, i) => `${i + 10}.03.2027`), '31.02.2027'];
    expect(dateFit(values)).toMatchObject({ format: 'DD.MM.YYYY', share: 0.9 });
    expect(dateFit([...values, 'завтра'])).toBeUndefined();
  });

  it.each([[['7707083893']], [['12,5']], [['ЗК-000101']], [['1']]])('%j is not a date', (values) => {
    expect(dateFit(values)).toBeUndefined();
  });
});

describe('numberFit', () => {
  it('finds decimal commas, and thousands separators by kind', () => {
    const fit = numberFit(['50', '2,5', '1\u00a0200', '1.234,50']);
    expect(fit.share).toBe(1);
    expect(fit.commaExample).toBe('2,5');
    expect(fit.pointExample).toBeUndefined();
    expect([...fit.thousands].sort()).toEqual(['dot', 'non-breaking space']);
  });

  it('"1,500" alone proves nothing (a thousand and a half, or one and a half); "0,500" does', () => {
    expect(numberFit(['1,500']).commaExample).toBeUndefined();
    expect(numberFit(['0,500']).commaExample).toBe('0,500');
  });

  it('finds decimal points with comma thousands', () => {
    const fit = numberFit(['1,234.50', '12.5']);
    expect(fit.pointExample).toBe('1,234.50');
    expect(fit.commaExample).toBeUndefined();
  });

  it('counts what is not a number', () => {
    expect(numberFit(['12', 'кг', '+7 495 123-45-67', '15.03.2027']).share).toBe(0.25);
    expect(numberFit(['1', '2', '3']).share).toBe(1);
  });
});

describe('isPhone', () => {
  it.each(['+7 495 123-45-67', '8 (812) 555-01-02', '89161234567', '+7(916)0001122', '555-01-02'])('%s is a phone', (value) => {
    expect(isPhone(value)).toBe(true);
  });
  it.each(['7707083893', '15.03.2027', '1 200', '12345', 'ЗК-000101', '2027-03-15'])('%s is not a phone', (value) => {
    expect(isPhone(value)).toBe(false);
  });
});

describe('currencyFit', () => {
  it('reads ISO codes in any case, and maps the Russian words for the rouble', () => {
    expect(currencyFit(['RUB', 'usd', 'EUR'])).toEqual({ share: 1, map: {} });
    expect(currencyFit(['руб.', 'RUB', 'Руб'])).toEqual({ share: 1, map: { 'руб.': 'RUB', Руб: 'RUB' } });
    expect(currencyFit(['шт', 'RUB']).share).toBe(0.5);
  });
});
