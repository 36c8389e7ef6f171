/** How one column scores for one field: the name, then what the content says of it. */
import { describe, expect, it } from 'vitest';
import { profileColumn } from '../../../src/mapping/suggest/profile-column.js';
import { scoreColumn, type ScoreContext } from '../../../src/mapping/suggest/score-column.js';
import { phraseEnglish } from '../../../src/mapping/suggest/summary-words.js';
import { targetsOf } from '../../../src/mapping/suggest/targets.js';

const JSON_CONTEXT: ScoreContext = { format: 'json', key: undefined, dateColumns: { record: 1, line: 1 }, noun: 'request' };

function score(targetKey: string, name: string, values: string[], ctx: ScoreContext = JSON_CONTEXT) {
  const target = targetsOf('requests').find((field) => field.key === targetKey)!;
  const scored = scoreColumn(target, profileColumn({ name, level: target.level, values, groups: values.map((_, index) => index) }), ctx);
  // The reason in English, as the CLI and the YAML's comments say it.
  return scored && { ...scored, reason: phraseEnglish(scored.reason) };
}

describe('scoreColumn', () => {
  it('takes a whole dictionary name at its weight (0.95), and content that agrees adds 0.05, up to 0.99', () => {
    expect(score('request.customer.inn', 'ИНН', ['7707083893', '0274062111'])).toMatchObject({
      confidence: 0.99,
      reason: 'named "ИНН"; values pass the INN check digit (2 of 2)',
    });
  });

  it('lets content decide alone for values that say what they are', () => {
    expect(score('request.customer.inn', 'Колонка 7', ['7707083893', '0274062111'])?.confidence).toBe(0.85);
    expect(score('request.contact.email', 'Колонка 8', ['a@b.ru', 'c@d.ru'])?.confidence).toBe(0.8);
  });

  it('halves a name whose values contradict it', () => {
    expect(score('request.customer.inn', 'ИНН', ['123', '456'])).toMatchObject({
      confidence: 0.48,
      reason: 'named "ИНН"; but its values fail the INN check digit',
    });
  });

  it('caps a date whose days are all 12 or less, since month-first fits as well', () => {
    const date = score('request.delivery.desiredDate', 'Колонка 3', ['01.02.2027', '03.04.2027']);
    expect(date?.confidence).toBe(0.65);
    expect(date?.options).toEqual({ date: 'DD.MM.YYYY' });
    expect(date?.reason).toContain('MM.DD.YYYY fits as well');
  });

  it('scores no column without a name or content that speaks for it', () => {
    expect(score('request.customer.inn', 'Колонка 7', [])).toBeUndefined();
    expect(score('request.contact.name', 'Колонка 2', ['Иванов', 'Петров'])).toBeUndefined();
  });
});
