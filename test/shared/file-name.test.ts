import { describe, expect, it } from 'vitest';
import { fitFileName, isWindowsDeviceName, MAX_NAME_BYTES, truncateUtf8, utf8Length } from '../../src/shared/file-name.js';

describe('truncateUtf8', () => {
  it.each([
    ['abc', 2, 'ab'],
    ['абв', 5, 'аб'],
    ['中文字', 8, '中文'],
    ['a😀b', 4, 'a'],
    ['a😀b', 5, 'a😀'],
    ['short', 100, 'short'],
    ['x', 0, ''],
  ])('%j cut to %i bytes is %j', (text, max, expected) => {
    expect(truncateUtf8(text, max)).toBe(expected);
  });
});

describe('isWindowsDeviceName', () => {
  it.each(['CON', 'nul', 'Com1.csv', 'LPT9.txt', 'aux.errors.json', 'PRN '])('%j is a device name', (name) => {
    expect(isWindowsDeviceName(name)).toBe(true);
  });
  it.each(['CONSOLE.csv', 'com10', 'ack-CON.csv', 'null', 'file.con'])('%j is not', (name) => {
    expect(isWindowsDeviceName(name)).toBe(false);
  });
});

describe('fitFileName', () => {
  it('leaves a name that fits alone', () => {
    expect(fitFileName('ack-ЗК-000101.csv')).toBe('ack-ЗК-000101.csv');
  });

  it('cuts a 300-byte Chinese name to the byte limit, keeping the extension, distinct per name', () => {
    const a = fitFileName(`ack-${'中'.repeat(100)}.csv`);
    const b = fitFileName(`ack-${'中'.repeat(99)}文.csv`);
    expect(utf8Length(a)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(a.endsWith('.csv')).toBe(true);
    expect(a).not.toBe(b);
    expect(fitFileName(`ack-${'中'.repeat(100)}.csv`)).toBe(a);
  });

  it('honours a smaller budget (room left for a temp suffix or a report suffix)', () => {
    const fitted = fitFileName('x'.repeat(400) + '.json', 200);
    expect(utf8Length(fitted)).toBe(200);
  });

  it('prefixes a Windows device name', () => {
    expect(fitFileName('NUL.csv')).toBe('_NUL.csv');
    expect(fitFileName('com1')).toBe('_com1');
  });
});
