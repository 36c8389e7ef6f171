/**
 * The city of a one-line Russian address, as 1C writes an address out (`fromAddress: city`).
 *
 * 1C's presentation is comma-separated parts, each a name with its type abbreviated before it (the
 * FIAS form of current configurations: `г Москва, ул Ленина, д 1`) or after it (the older KLADR
 * form: `123456, Москва г, Ленина ул, дом № 1`); a typed address adds dots (`г. Москва`). A part
 * typed as a city (`г`, `г.`, `город`) wins; else a settlement (`пгт`, `рп`, `п`, `с`, `д`, …) that
 * is not a house number; else a federal city named bare (`Москва`). Nothing recognisable is no
 * city (the field's `default:` then applies): a guess would put the request in the wrong place.
 *
 * Hand-written: address parsers for Russian (the FIAS/DaData family) are services or databases,
 * not a library that reads one string offline.
 */

/** City type words, as 1C and people write them. */
const CITY_TYPES = new Set(['г', 'город']);
/** Settlement types (after a city, since `д` is also a house and `п` a room in some writings). */
const SETTLEMENT_TYPES = new Set([
  'пгт',
  'рп',
  'кп',
  'дп',
  'п',
  'пос',
  'поселок',
  'посёлок',
  'с',
  'село',
  'д',
  'дер',
  'деревня',
  'ст-ца',
  'станица',
  'х',
  'хутор',
  'аул',
  'сл',
  'слобода',
  'нп',
  'снт',
]);
/** Cities of federal significance: often written without a type (`123456, Москва, …`). */
const FEDERAL_CITIES = new Set(['москва', 'санкт-петербург', 'севастополь']);

/** A type word as written: lower case, without its dot (`г.` → `г`). */
const typeWord = (word: string): string => word.toLowerCase().replace(/\.$/, '');

/** The name of a part typed with one of `types` (before or after the name), or undefined. */
function namedAs(part: string, types: ReadonlySet<string>): string | undefined {
  // `г.Москва`: a type glued to the name by its dot (a capital follows it; `г.о. Химки`, a
  // municipal district, is one word of its own and no city type).
  const words = part
    .replace(/^([А-Яа-яЁё-]{1,8})\.(?=[А-ЯЁ][а-яё])/u, '$1. ')
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length < 2) return undefined;
  const first = typeWord(words[0]!);
  const last = typeWord(words[words.length - 1]!);
  const name = types.has(first) ? words.slice(1) : types.has(last) ? words.slice(0, -1) : undefined;
  if (name === undefined) return undefined;
  const text = name.join(' ').trim();
  // A house or flat number (`д 1`, `п 12`, `д б/н`) is not a settlement.
  if (text === '' || /[\d/№]/.test(text)) return undefined;
  return text;
}

/** The city (else the settlement) an address names; undefined when none can be told. */
export function cityOfAddress(address: string): string | undefined {
  const parts = address
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const part of parts) {
    const city = namedAs(part, CITY_TYPES);
    if (city !== undefined) return city;
  }
  const federal = parts.find((part) => FEDERAL_CITIES.has(part.toLowerCase()));
  if (federal !== undefined) return federal;
  for (const part of parts) {
    const settlement = namedAs(part, SETTLEMENT_TYPES);
    if (settlement !== undefined) return settlement;
  }
  return undefined;
}
