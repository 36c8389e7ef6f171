/** Column names to target fields: the names ERPs really write, with case, spacing, punctuation and ё ignored. */
import { describe, expect, it } from 'vitest';
import { dictionarySize } from '../../../src/mapping/suggest/dictionary.js';
import { matchName, nameWords } from '../../../src/mapping/suggest/names.js';
import { targetsOf } from '../../../src/mapping/suggest/targets.js';
import { CONFIDENCE_THRESHOLD } from '../../../src/mapping/suggest/types.js';

/** The field a name scores best for among the fields of `kind`, with its score. */
function bestField(name: string, kind: 'requests' | 'confirmations' = 'requests'): [string, number] | undefined {
  let best: [string, number] | undefined;
  for (const target of targetsOf(kind)) {
    const score = matchName(target.key, name)?.score ?? 0;
    if (score > (best?.[1] ?? 0)) best = [target.key, score];
  }
  return best;
}

describe('nameWords', () => {
  it.each([
    ['Кол-во', ['кол', 'во']],
    ['Ед. изм.', ['ед', 'изм']],
    ['Контрагент.ИНН', ['контрагент', 'инн']],
    ['НомерСтроки', ['номер', 'строки']],
    ['contact.fullName', ['contact', 'full', 'name']],
    ['Док№', ['док', 'no']],
    ['  Счёт   №  ', ['счет', 'no']],
    ['E-MAIL', ['e', 'mail']],
  ])('%j → %j', (name, words) => {
    expect(nameWords(name)).toEqual(words);
  });
});

describe('matchName: the names of the issue, and their variants', () => {
  it.each([
    ['ИНН', 'request.customer.inn'],
    ['ИНН покупателя', 'request.customer.inn'],
    ['Контрагент.ИНН', 'request.customer.inn'],
    ['инн  ПОКУПАТЕЛЯ', 'request.customer.inn'],
    ['Кол-во', 'items.quantity'],
    ['КОЛ-ВО', 'items.quantity'],
    ['Кол во', 'items.quantity'],
    ['Количество', 'items.quantity'],
    ['Ед. изм.', 'items.unit'],
    ['Ед.изм', 'items.unit'],
    ['ЕИ', 'items.unit'],
    ['Номенклатура', 'items.name'],
    ['Товар', 'items.name'],
    ['Срок', 'request.delivery.desiredDate'],
    ['Дата поставки', 'request.delivery.desiredDate'],
    ['Организация', 'request.customer.name'],
    ['Покупатель', 'request.customer.name'],
    ['ФИО', 'request.contact.name'],
    ['Контактное лицо', 'request.contact.name'],
    ['Тел.', 'request.contact.phone'],
    ['тел', 'request.contact.phone'],
    ['E-mail', 'request.contact.email'],
    ['Email', 'request.contact.email'],
    ['Док№', 'request.externalId'],
    ['Док №', 'request.externalId'],
    ['Номер заявки', 'request.externalId'],
    ['№ заявки', 'request.externalId'],
    ['Примечание', 'request.comment'],
    ['НомерСтроки', 'items.lineId'],
    ['№ п/п', 'items.lineId'],
    ['Qty', 'items.quantity'],
    ['UoM', 'items.unit'],
    ['Need by', 'request.delivery.desiredDate'],
    ['Ship to', 'request.delivery.address'],
  ])('%j names %s', (name, key) => {
    const [field, score] = bestField(name)!;
    expect(field).toBe(key);
    expect(score).toBeGreaterThanOrEqual(CONFIDENCE_THRESHOLD);
  });

  it.each([
    ['Заказ площадки', 'orderId'],
    ['Док№', 'confirmation.supplierOrderId'],
    ['Счёт №', 'confirmation.supplierOrderId'],
    ['Готов к отгрузке', 'confirmation.readyToShipDate'],
    ['Кол-во', 'items.confirmedQuantity'],
    ['Цена', 'items.price'],
    ['Валюта', 'items.currency'],
  ])('confirmations: %j names %s', (name, key) => {
    expect(bestField(name, 'confirmations')?.[0]).toBe(key);
  });

  it('a strong phrase inside a longer name counts for less; a generic word counts only alone', () => {
    expect(matchName('request.customer.inn', 'ИНН получателя (грузополучателя)')).toEqual({ score: 0.95 * 0.75, phrase: 'ИНН', how: 'part' });
    expect(matchName('request.externalId', 'Номер')).toMatchObject({ score: 0.8, how: 'exact' });
    expect(matchName('request.externalId', 'Номер строки')).toBeUndefined();
  });

  it('the supplier is not the customer', () => {
    expect(matchName('request.customer.inn', 'ИНН поставщика')).toBeUndefined();
    expect(matchName('request.customer.name', 'Supplier name')).toBeUndefined();
    expect(matchName('orderId', 'Номер заказа поставщика')).toBeUndefined();
  });

  it('the dictionary holds hundreds of names', () => {
    expect(dictionarySize()).toBeGreaterThan(300);
  });
});
