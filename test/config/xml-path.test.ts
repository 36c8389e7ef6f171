/** XML paths: what parses to what, and the reason every unsupported or broken form is refused with. */
import { describe, expect, it } from 'vitest';
import { parseXmlPath, type XmlStep } from '../../src/config/xml-path.js';

const el = (name: string, where?: { child: string; equals: string }): XmlStep =>
  where === undefined ? { kind: 'element', name } : { kind: 'element', name, where };
const at = (name: string): XmlStep => ({ kind: 'attribute', name });

describe('parseXmlPath: valid paths', () => {
  const cases: [string, XmlStep[][]][] = [
    ['Номер', [[el('Номер')]]],
    ['Товары/Товар', [[el('Товары'), el('Товар')]]],
    ['  Товары / Товар  ', [[el('Товары'), el('Товар')]]],
    ['cml:Товары/cml:Товар', [[el('Товары'), el('Товар')]]],
    ["Контрагенты/Контрагент[Роль='Покупатель']/ИНН", [[el('Контрагенты'), el('Контрагент', { child: 'Роль', equals: 'Покупатель' }), el('ИНН')]]],
    ['Контрагент[ Роль = "Покупатель" ]', [[el('Контрагент', { child: 'Роль', equals: 'Покупатель' })]]],
    [
      "Реквизит[Наименование='Адрес | доставки / склад']/Значение",
      [[el('Реквизит', { child: 'Наименование', equals: 'Адрес | доставки / склад' }), el('Значение')]],
    ],
    ["Контакт[Тип='']/Значение", [[el('Контакт', { child: 'Тип', equals: '' }), el('Значение')]]],
    ['БазоваяЕдиница/@Код', [[el('БазоваяЕдиница'), at('Код')]]],
    ['@Код', [[at('Код')]]],
    ['@xsi:type', [[at('type')]]],
    ['.', [[]]],
    ['a | b|c', [[el('a')], [el('b')], [el('c')]]],
    ['БазоваяЕдиница | БазоваяЕдиница/@НаименованиеПолное | .', [[el('БазоваяЕдиница')], [el('БазоваяЕдиница'), at('НаименованиеПолное')], []]],
    ['Item_2/sub-name/x.y', [[el('Item_2'), el('sub-name'), el('x.y')]]],
  ];
  it.each(cases)('%s', (text, alternatives) => {
    expect(parseXmlPath(text)).toEqual({ text, alternatives });
  });
});

describe('parseXmlPath: refused, with the reason', () => {
  const cases: [string, RegExp][] = [
    ['', /is empty/],
    ['   ', /is empty/],
    ['Товары//Товар', /'\/\/' \(search at any depth\), which is not supported.*supported: Name\/Name/],
    ['/КоммерческаяИнформация/Документ', /starts with '\/'/],
    ['Товары/', /ends with '\/'/],
    ['Товары/*', /'\*' \(any element\), which is not supported/],
    ['../Номер', /'\.\.' \(the parent element\), which is not supported/],
    ['Товар[1]', /a position \[1\], which is not supported: a condition is \[Child='value'\]/],
    ['Контрагент[Роль', /unclosed '\['/],
    ["Контрагент[Роль='Покупатель'", /unclosed '\['/],
    ["Контрагент[Роль='Покупатель]", /unclosed quote/],
    ['Контрагент]', /']' without its '\['/],
    ["Контрагент[Роль='a'][Тип='b']", /more than one \[condition\]/],
    ["Контрагент[Роль='a']x", /text after '\]'/],
    ["Контрагент[@Роль='a']", /unsupported condition \[@Роль='a'\].*a child element's text compared exactly/],
    ['Контрагент[Роль]', /unsupported condition \[Роль\]/],
    ["Контрагент[Роль!='a']", /unsupported condition/],
    ["Контрагент[contains(Роль,'a')]", /unsupported condition/],
    ['@Код/Значение', /has @Код before its last step: an attribute can only end a path/],
    ["@Код[Роль='a']", /condition\] on the attribute @Код/],
    ['./Товар', /'\.' among other steps/],
    ['a || b', /empty alternative/],
    ['a |', /empty alternative/],
    ['Товар Наименование', /invalid element name "Товар Наименование"/],
    ['1/Товар', /a number, not an element name/],
    ['a:b:c', /invalid element name/],
    ["[Роль='a']", /no element before it/],
  ];
  it.each(cases)('%s', (text, reason) => {
    const parsed = parseXmlPath(text);
    expect(typeof parsed).toBe('string');
    expect(parsed).toMatch(reason);
  });
});

describe('parseXmlPath: roles', () => {
  it('a record path starts at the root, may carry a condition on its last step only, and names elements', () => {
    expect(parseXmlPath("КИ/Документ[ХозОперация='Заказ товара'] | КИ/Контейнер/Документ", 'record')).toMatchObject({
      alternatives: [
        [{}, {}],
        [{}, {}, {}],
      ],
    });
    expect(parseXmlPath("КИ/Контейнер[Тип='a']/Документ", 'record')).toMatch(/is a record path: a \[condition\] can only be on its last step/);
    expect(parseXmlPath('КИ/Документ/@Ид', 'record')).toMatch(/is a record path, which names elements: it cannot have an @attribute step/);
    expect(parseXmlPath('.', 'record')).toMatch(/is a record path: it cannot be '\.'/);
  });

  it('a lines path names elements, with conditions anywhere, and may be the record itself', () => {
    expect(parseXmlPath("Товары[Вид='a']/Товар[Тип='b']", 'lines')).toMatchObject({ alternatives: [[{ where: {} }, { where: {} }]] });
    expect(parseXmlPath('.', 'lines')).toEqual({ text: '.', alternatives: [[]] });
    expect(parseXmlPath('Товары/Товар/@Ид', 'lines')).toMatch(/is a lines path, which names elements/);
  });
});
