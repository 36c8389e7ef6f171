import { describe, expect, it } from 'vitest';
import { FORMULA_TRIGGERS, neutraliseFormula, startsLikeFormula } from '../../src/shared/csv-formula.js';

describe('neutraliseFormula', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['=1+1', "'=1+1"],
    ['+7 495 000-00-00', "'+7 495 000-00-00"],
    ['-5', "'-5"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\r=1+1"],
    ["'=already quoted", "'=already quoted"],
    ['plain text', 'plain text'],
    ['Болт М8', 'Болт М8'],
    ['a=b', 'a=b'],
    ['5-3', '5-3'],
    [' =1+1', ' =1+1'],
    ['\n=1', '\n=1'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(neutraliseFormula(input)).toBe(expected);
  });

  it('treats exactly the OWASP triggers as formula starts', () => {
    for (const trigger of FORMULA_TRIGGERS) expect(startsLikeFormula(`${trigger}x`)).toBe(true);
    expect(FORMULA_TRIGGERS).toEqual(['=', '+', '-', '@', '\t', '\r']);
  });
});
