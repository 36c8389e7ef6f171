/**
 * The console's text in English and Russian (`console.language`, default `ru`: its users read
 * Russian). Only the interface is translated; the data (names, messages, codes) is shown as it is.
 * `ru` must have every key of `en`: the compiler checks it.
 */
import type { ConsoleLanguage } from '../../config/console-schema.js';
import { en, type MessageKey, type Messages } from './messages-en.js';
import { ru } from './messages-ru.js';

export type { MessageKey };

const CATALOGUES: Record<ConsoleLanguage, Messages> = { en, ru };

export type Translate = (key: MessageKey, params?: Record<string, string | number | null | undefined>) => string;

/** The translator of a language: `t('search.nothing', { q })`; `{name}` placeholders are filled as text (JSX escapes them). */
export function translator(language: ConsoleLanguage): Translate {
  const messages = CATALOGUES[language];
  return (key, params) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name] ?? '—') : whole));
}

/** `t` for a key built from data (a state, an error code), with a fallback when the catalogue has none. */
export function translateOr(t: Translate, key: string, fallback: string, params?: Record<string, string | number | null | undefined>): string {
  return key in en ? t(key as MessageKey, params) : fallback;
}
