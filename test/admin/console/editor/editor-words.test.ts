/**
 * The editor's own words (editor/words.ts) in the console's language: every key the editor says is
 * in both catalogues with the same placeholders, the page gives the editor the words of its
 * language, and the editor says its marks and types with them (Russian here).
 */
import { describe, expect, it } from 'vitest';
import { EDITOR_WORD_KEYS, EDITOR_WORDS_EN, sayWith } from '../../../../src/admin/console/editor/words.js';
import { createChecker } from '../../../../src/admin/console/editor/schema-problems.js';
import { describeAt, suggestAt } from '../../../../src/admin/console/editor/schema-assist.js';
import { describeType, schemasAt, type Schema } from '../../../../src/admin/console/editor/schema-walk.js';
import { translator } from '../../../../src/admin/console/i18n.js';
import { en } from '../../../../src/admin/console/messages-en.js';
import { ru } from '../../../../src/admin/console/messages-ru.js';
import { textsEn } from '../../../../src/admin/console/texts-en.js';
import { textsRu } from '../../../../src/admin/console/texts-ru.js';
import { editorWords } from '../../../../src/admin/console/views/mapping.js';
import { jsonSchemaOf } from '../../../../src/config/json-schema.js';
import { latinWords } from '../../../helpers/console/latin-words.js';

const REQUESTS = jsonSchemaOf('mapping-requests') as Schema;
const placeholders = (text: unknown) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the editor's words", () => {
  it.each(EDITOR_WORD_KEYS)('%s is in both catalogues, with the same placeholders', (key) => {
    const [catalogue, name] = key.startsWith('text.') ? (['texts', key.slice(5)] as const) : (['messages', key] as const);
    const english: Record<string, unknown> = catalogue === 'texts' ? textsEn : en;
    const russian: Record<string, unknown> = catalogue === 'texts' ? textsRu : ru;
    expect(Object.hasOwn(english, name), `${key} in English`).toBe(true);
    expect(Object.hasOwn(russian, name), `${key} in Russian`).toBe(true);
    expect(typeof russian[name], key).toBe('string');
    expect(placeholders(russian[name])).toEqual(placeholders(english[name]));
    expect(russian[name]).not.toBe('');
  });

  it('are English in the English catalogue as the editor says them without a page', () => {
    for (const [key, text] of Object.entries(EDITOR_WORDS_EN)) expect(en[key as keyof typeof en]).toBe(text);
    const english = editorWords(translator('en'));
    for (const key of EDITOR_WORD_KEYS) expect(sayWith({})(key as never), key).toBe(english[key]);
  });

  it('the page gives the editor every word, in its language, placeholders for the editor to fill', () => {
    const words = editorWords(translator('ru'));
    expect(Object.keys(words).sort()).toEqual([...EDITOR_WORD_KEYS].sort());
    expect(words['editor.minimum']).toBe('должно быть не меньше {n}');
    expect(words['text.yamlBadIndent']).toBe(textsRu.yamlBadIndent);
  });
});

describe('a Russian editor', () => {
  const say = sayWith(editorWords(translator('ru')));
  const check = createChecker(REQUESTS, say);
  /** Every Latin-script word of the editor's own in a Russian message: what it quotes (keys, values) and the `data` it names taken out. */
  const english = (message: string, ...data: string[]) =>
    latinWords(data.reduce((text, quoted) => text.split(quoted).join(' '), message.replace(/«[^»]*»|"[^"]*"/g, ' ')));

  it('marks schema problems and YAML errors in Russian', () => {
    const text = 'format: xls\ngroupBy: 5\nformt: csv\nrequest: {}\nitems: {}\nxlsx: { sheet: 0 }\ncsv: { delimiter: ";;" }\n';
    const marks = check(text);
    expect(marks.map((mark) => mark.message)).toContain('неизвестный ключ «formt» (может быть, format?)');
    expect(marks.map((mark) => mark.message)).toContain('ожидается строка или целое число больше 0, а здесь число 0');
    expect(marks.map((mark) => mark.message)).toContain('должно быть одним символом');
    for (const mark of marks) expect(english(mark.message, 'csv, json, ndjson, xlsx, xml', 'format'), mark.message).toEqual([]);
    const yaml = check('a: [\nb: 1\n  c: 2\n');
    expect(yaml.length).toBeGreaterThan(0);
    for (const mark of yaml) expect(english(mark.message), mark.message).toEqual([]);
    expect(check('a: 1\n\tb: 2\n').map((mark) => mark.message)).toContain('отступ сделан табуляцией: в YAML отступы делаются пробелами');
    expect(check('- a\n')[0]!.message).toBe('должен быть словарём YAML (пары «ключ: значение»)');
  });

  it('names types, defaults and hover in Russian', () => {
    expect(describeType(REQUESTS, schemasAt(REQUESTS, ['fillDown'])[0], say)).toBe('логическое значение или список: строки');
    const text = 'csv:\n  encoding: auto\n';
    const hover = describeAt(REQUESTS, text, text.indexOf('encoding') + 2, say)!;
    expect(english(hover.type, 'utf-8, windows-1251, auto')).toEqual([]);
    const [completion, pos] = ['csv:\n  encoding: ', 'csv:\n  encoding: '.length];
    expect(suggestAt(REQUESTS, completion, pos, say)!.suggestions.map((s) => s.detail)).toContain('по умолчанию');
  });
});
