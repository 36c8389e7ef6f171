/**
 * The names of the exchange's files in its folder. 1C writes `Message_<its code>_<our code>.xml`
 * (or `.zip` when it compresses; `Message_<infobase prefix>_<its code>_<our code>` when its own code
 * is a UUID and the infobase has a prefix) and reads the newest `Message*_<our code>_<its code>.*`.
 * With 1C's "transliterate file names" setting both names are written in Latin letters, by the
 * table below. Everything else in the folder is 1C's or someone else's, and is left alone (1C's own
 * folder test writes and deletes `ConnectionCheckFile_<uuid>.tmp`).
 */
import { isExchangeUuid } from '../config/enterprisedata-schema.js';
import type { ExchangeNameForm } from '../store/exchanges.js';

/**
 * 1C's transliteration of file names (the Standard Subsystems Library's `СтрокаЛатиницей`, the
 * rules of Russian passports of 1997–2010): letters not listed stay as they are, and a capital
 * gives a capitalised group (`Щ` → `Shch`). Sites that can should give the exchange Latin codes.
 */
const LATIN: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

/** `text` in Latin letters as 1C transliterates a file name. */
export function transliterate(text: string): string {
  let out = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    const latin = Object.hasOwn(LATIN, lower) ? LATIN[lower]! : undefined;
    if (latin === undefined) out += char;
    else out += char === lower || latin === '' ? latin : latin[0]!.toUpperCase() + latin.slice(1);
  }
  return out;
}

export interface ExchangeCodes {
  /** Our code (this program's, as entered in 1C). */
  node: string;
  /** 1C's own code. */
  peer: string;
}

const MESSAGE_EXTENSIONS = ['.xml', '.zip'];

/** The base of a message file's name (`Message_…` without `.xml` or `.zip`, the extension in any case), or null for any other name. */
function messageBase(name: string): string | null {
  const dot = name.lastIndexOf('.');
  if (dot === -1 || !MESSAGE_EXTENSIONS.includes(name.slice(dot).toLowerCase())) return null;
  const base = name.slice(0, dot);
  return base.startsWith('Message_') ? base : null;
}

/**
 * Which of the two names 1C's message to us is written under: `plain` (the codes as they are) or
 * `transliterated` (1C's "transliterate file names" is on); null when `name` is not 1C's message
 * to us. With codes in Latin letters both are the same name, which is `plain`.
 */
export function peerNameForm(name: string, codes: ExchangeCodes): ExchangeNameForm | null {
  const base = messageBase(name);
  if (base === null) return null;
  const matches = (tail: string) => base === `Message${tail}` || (base.endsWith(tail) && base.length > `Message_${tail}`.length);
  if (matches(`_${codes.peer}_${codes.node}`)) return 'plain';
  if (matches(`_${transliterate(codes.peer)}_${transliterate(codes.node)}`)) return 'transliterated';
  return null;
}

/**
 * Is `name` one of 1C's messages to us: `Message_<peer>_<node>` or `Message_<prefix>_<peer>_<node>`,
 * `.xml` or `.zip` (any case), with the codes as they are or transliterated?
 */
export function isPeerMessageName(name: string, codes: ExchangeCodes): boolean {
  return peerNameForm(name, codes) !== null;
}

/** Do the codes read differently transliterated (a Cyrillic letter in either), so that 1C's setting changes the names? */
export function namesDependOnTransliteration(codes: ExchangeCodes): boolean {
  return transliterate(codes.node) !== codes.node || transliterate(codes.peer) !== codes.peer;
}

/** The name of our reply, as 1C looks for it. */
export function replyName(codes: ExchangeCodes, transliterateNames: boolean): string {
  const name = `Message_${codes.node}_${codes.peer}.xml`;
  return transliterateNames ? transliterate(name) : name;
}

/**
 * Whether our reply is named in Latin letters: as 1C last named its own message to us, since with
 * its setting on 1C looks only for transliterated names and with it off only for the names as they
 * are; before 1C has written anything (or with codes that read the same either way), as the
 * config says (`transliterateFileNames`).
 */
export function replyTransliterated(configured: boolean, peerForm: ExchangeNameForm | null): boolean {
  return peerForm === null ? configured : peerForm === 'transliterated';
}

/** The codes a message file's name carries: `Message_<from>_<to>`, or `Message_<prefix>_<from>_<to>` where 1C's own code is a UUID. */
export interface MessageNameCodes {
  /** The infobase prefix 1C puts before its code when that code is a UUID; null without one. */
  prefix: string | null;
  from: string;
  to: string;
}

/**
 * The codes in a message file's name (`Message_*.xml` or `.zip`), or null when the name is not a
 * message's or its codes cannot be told apart (a code holding `_`, say): 1C joins the parts with
 * `_` and a prefix of 1C's stands only before a UUID.
 */
export function parseMessageName(name: string): MessageNameCodes | null {
  const base = messageBase(name);
  if (base === null) return null;
  const parts = base.slice('Message_'.length).split('_');
  if (parts.some((part) => part === '')) return null;
  if (parts.length === 2) return { prefix: null, from: parts[0]!, to: parts[1]! };
  if (parts.length === 3 && isExchangeUuid(parts[1]!)) return { prefix: parts[0]!, from: parts[1]!, to: parts[2]! };
  return null;
}

/** Is `name` a message file's name at all (`Message_*.xml` or `.zip`, the extension in any case)? */
export function isMessageFileName(name: string): boolean {
  return messageBase(name) !== null;
}
