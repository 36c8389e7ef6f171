/**
 * The console's text in English and Russian (`console.language`, default `ru`: its users read
 * Russian). The interface is translated (`messages-*.ts`), and so is everything the connector
 * itself says about the data: a problem, a note, an error code, the platform's answer is worded
 * from its key and parameters (`texts-*.ts`, `codes-ru.ts`), never shown as the English sentence
 * the report files and the log carry. The data itself (names, values, the platform's own words)
 * is shown as it is. `ru` must have every key of `en`: the compiler checks it.
 */
import type { ConsoleLanguage } from '../../config/console-schema.js';
import { ERROR_CODES, type ErrorCode } from '../../errors.js';
import type { MessageText } from '../../shared/types.js';
import { CODES_RU } from './codes-ru.js';
import { fillEntry, type Entry } from './i18n-entry.js';
import { en, type MessageKey, type Messages } from './messages-en.js';
import { ru } from './messages-ru.js';
import { textsEn, type TextKey, type Texts } from './texts-en.js';
import { textsRu } from './texts-ru.js';

export type { MessageKey };

const CATALOGUES: Record<ConsoleLanguage, { messages: Messages; texts: Texts; codes: Readonly<Record<ErrorCode, string>> }> = {
  en: { messages: en, texts: textsEn, codes: ERROR_CODES },
  ru: { messages: ru, texts: textsRu, codes: CODES_RU },
};

type Params = Record<string, string | number | null | undefined>;

/** `t('search.nothing', { q })`; `t.text(problem.text)`, `t.code('INN_INVALID')`. `{name}` placeholders are filled as text (JSX escapes them). */
export interface Translate {
  (key: MessageKey, params?: Params): string;
  readonly language: ConsoleLanguage;
  /** A problem's or note's text from its key and parameters; undefined for a key the catalogue does not have. */
  text(text: MessageText): string | undefined;
  /** What an error code means, in this language (the code itself for one the catalogue does not know). */
  code(code: string): string;
}

/** The translator of a language. */
export function translator(language: ConsoleLanguage): Translate {
  const { messages, texts, codes } = CATALOGUES[language];
  const t = ((key: MessageKey, params?: Params) => fillEntry(messages[key] as Entry, language, params)) as Translate & { language: ConsoleLanguage };
  Object.assign(t, {
    language,
    text: (text: MessageText) => (Object.hasOwn(texts, text.key) ? fillEntry(texts[text.key as TextKey], language, text.params) : undefined),
    code: (code: string) => (Object.hasOwn(codes, code) ? codes[code as ErrorCode] : code),
  });
  return t;
}

/** `t` for a key built from data (a state, an error code), with a fallback when the catalogue has none. */
export function translateOr(t: Translate, key: string, fallback: string, params?: Params): string {
  return key in en ? t(key as MessageKey, params) : fallback;
}
