/**
 * The names of the exchange's files in its folder. 1C writes `Message_<its code>_<our code>.xml`
 * (or `.zip` when it compresses; `Message_<infobase prefix>_<its code>_<our code>` when its own code
 * is a UUID and the infobase has a prefix) and reads the newest `Message*_<our code>_<its code>.*`.
 * With 1C's "transliterate file names" setting both names are written in Latin letters, by the
 * table below. Everything else in the folder is 1C's or someone else's, and is left alone (1C's own
 * folder test writes and deletes `ConnectionCheckFile_<uuid>.tmp`).
 */

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

/**
 * Is `name` one of 1C's messages to us: `Message_<peer>_<node>` or `Message_<prefix>_<peer>_<node>`,
 * `.xml` or `.zip` (any case), with the codes as they are or transliterated?
 */
export function isPeerMessageName(name: string, codes: ExchangeCodes): boolean {
  const dot = name.lastIndexOf('.');
  if (dot === -1 || !MESSAGE_EXTENSIONS.includes(name.slice(dot).toLowerCase())) return false;
  const base = name.slice(0, dot);
  if (!base.startsWith('Message_')) return false;
  return [`_${codes.peer}_${codes.node}`, `_${transliterate(codes.peer)}_${transliterate(codes.node)}`].some(
    (tail) => base === `Message${tail}` || (base.endsWith(tail) && base.length > `Message_${tail}`.length),
  );
}

/** The name of our reply, as 1C looks for it. */
export function replyName(codes: ExchangeCodes, transliterateNames: boolean): string {
  const name = `Message_${codes.node}_${codes.peer}.xml`;
  return transliterateNames ? transliterate(name) : name;
}
