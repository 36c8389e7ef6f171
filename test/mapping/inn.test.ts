import { describe, expect, it } from 'vitest';
import { explainInn, isValidInn } from '../../src/mapping/inn.js';

describe('isValidInn', () => {
  it.each([
    ['7707083893', true], // 10 digits, organisation
    ['7728168971', true],
    ['0274062111', true], // leading zero
    ['500100732259', true], // 12 digits, person
    ['123456789047', true],
    ['7707083894', false], // wrong check digit
    ['7707083890', false],
    ['500100732258', false], // wrong 12th digit
    ['500100732269', false], // wrong 11th digit
    ['770708389', false], // 9 digits
    ['77070838933', false], // 11 digits
    ['5001007322599', false], // 13 digits
    ['', false],
    ['77070838a3', false],
    [' 7707083893', false],
  ])('%s → %s', (inn, valid) => {
    expect(isValidInn(inn)).toBe(valid);
  });

  it('explains why an INN is wrong', () => {
    expect(explainInn('7707083894')).toEqual({ reason: 'fails the INN check digit', text: { key: 'innCheck' } });
    expect(explainInn('770708389')).toEqual({ reason: 'must be 10 or 12 digits (has 9)', text: { key: 'innLength', params: { n: 9 } } });
    expect(explainInn('77-0708389')).toEqual({ reason: 'must hold digits only', text: { key: 'innDigits' } });
    expect(explainInn('7707083893')).toBeUndefined();
  });
});
