/**
 * `cityOfAddress`: the city (else the settlement) of a one-line Russian address as 1C writes one:
 * the KLADR form (type after the name), the FIAS form (type before it), typed with dots, a
 * federal city written bare; nothing recognisable is no city, so that the field's default applies.
 */
import { describe, expect, it } from 'vitest';
import { cityOfAddress } from '../../src/mapping/address-city.js';

describe('cityOfAddress', () => {
  it.each<[string, string, string | undefined]>([
    // Cities, typed.
    ['KLADR form, the type after the name', '123456, Москва г, Ленина ул, дом № 1', 'Москва'],
    ['FIAS form, the type before the name, after a region', 'Московская обл, г Химки, ул Заводская, д 5', 'Химки'],
    ['typed with a dot', 'г. Санкт-Петербург, Невский пр., д. 1', 'Санкт-Петербург'],
    ['the type glued to the name by its dot', 'г.Казань, ул. Баумана', 'Казань'],
    ['the type after the name, with its dot', '420111, Татарстан Респ, Казань г., Баумана ул, дом 1', 'Казань'],
    ['the type written out', 'Свердловская обл, город Екатеринбург, ул Малышева, д 1', 'Екатеринбург'],
    ['a name of two words', 'Нижегородская обл, Нижний Новгород г, Большая Покровская ул, дом 1', 'Нижний Новгород'],
    ['a name of two words alone', 'Нижний Новгород г', 'Нижний Новгород'],
    ['a hyphenated name', '683000, Камчатский край, г Петропавловск-Камчатский, ул Ленинская, д 1', 'Петропавловск-Камчатский'],
    ['parts separated by semicolons', 'Московская обл; г Химки; ул Заводская', 'Химки'],
    ['the type in capitals', 'Г. ТУЛА, ул. Советская', 'ТУЛА'],
    // Federal cities, bare.
    ['Moscow written bare', '123456, Москва, ул Ленина', 'Москва'],
    ['Saint Petersburg written bare', '199106, Санкт-Петербург, Кожевенная линия, 34', 'Санкт-Петербург'],
    ['Sevastopol written bare, in lower case', 'севастополь, ул Ленина, 1', 'севастополь'],
    ['a typed city wins over a federal city written before it', 'Москва, г Зеленоград, корп 1', 'Зеленоград'],
    ['a federal city wins over a settlement', '108814, Москва, п Коммунарка, ул Александры Монаховой, д 1', 'Москва'],
    // Settlements.
    ['an urban-type settlement', 'Забайкальский край, пгт Забайкальский, ул Мира, д 1', 'Забайкальский'],
    ['a village, type before', 'Тамбовская обл, с Ивановка, ул Центральная, д 3', 'Ивановка'],
    ['a village, type after', 'Тверская обл, Ивановка д, Центральная ул, дом 3', 'Ивановка'],
    ['a settlement glued to its type by a dot', 'Краснодарский край, ст-ца.Динская, ул Красная, д 1', 'Динская'],
    ['a city wins over a settlement written before it', 'с Ивановка, г Химки', 'Химки'],
    // Houses and rooms are not settlements.
    ['a house (д 1) is not a village', 'ул Ленина, д 1', undefined],
    ['a house with a dot is not a village', 'ул. Ленина, д. 15а', undefined],
    ['a room (п 12) is not a settlement', 'ул Ленина, д 1, п 12', undefined],
    // Municipal formations (found by a review: `г.о.` once read as the city type `г`, giving `о. Химки`).
    ['an urban district before the city', 'Московская обл, г.о. Химки, г Химки, ул Заводская, д 5', 'Химки'],
    ['an urban district and a microdistrict only', 'Московская обл, г.о. Балашиха, мкр Железнодорожный, ул Граничная, д 1', undefined],
    ['an urban district and a village', 'Московская обл, г.о. Красногорск, д Глухово, ул Рублевское предместье, д 1', 'Глухово'],
    ['an urban settlement formation and its settlement', 'Ленинградская обл, Гатчинский р-н, с.п. Пудостьское, п Пудость', 'Пудость'],
    ['a house without a number (б/н) is not a village', 'Тверская обл, д. б/н', undefined],
    // Nothing recognisable.
    ['a city written bare (not federal) is not guessed', 'Химки, ул Заводская, 5', undefined],
    ['a region only', 'Московская обл', undefined],
    ['a type without a name', 'г, ул Ленина', undefined],
    ['the empty string', '', undefined],
    ['separators only', ' , ; ,', undefined],
  ])('%s: %j → %j', (_what, address, expected) => {
    expect(cityOfAddress(address)).toBe(expected);
  });
});
