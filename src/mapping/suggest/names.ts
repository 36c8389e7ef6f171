/**
 * Column names as ERPs write them, reduced to comparable words: case, spacing, punctuation and
 * `ё`/`е` do not matter (`Кол-во` = `Колво`, `Ед. изм.` = `Ед.изм.`), a 1C path is its words
 * (`Контрагент.ИНН` → `контрагент инн`), camelCase is split (`НомерСтроки`, `fullName`), and `№`,
 * `#` and `No` are one word (`Док№` = `Док No`).
 */
import { FIELD_NAMES, type NamePhrase } from './dictionary.js';

/** The words of a name, lower-case, `ё` as `е`, `№`/`#` as `no`. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKC')
    .replace(/([a-zа-яё])([A-ZА-ЯЁ])/gu, '$1 $2')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[№#]/g, ' no ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** A phrase of the dictionary met in a column name, and how strongly it names the field. */
export interface NameMatch {
  score: number;
  /** The dictionary phrase as written there (`ИНН покупателя`). */
  phrase: string;
  /** `exact`: the whole name is the phrase; `part`: the phrase's words stand inside a longer name. */
  how: 'exact' | 'part';
}

/** A strong phrase found inside a longer name counts this much of its weight. */
const PART_FACTOR = 0.75;
/** Weights from which a phrase is specific enough to count inside a longer name. */
const PART_MIN_WEIGHT = 0.9;

interface CompiledPhrase extends NamePhrase {
  words: string[];
  joined: string;
}

const compiled = new Map<string, { phrases: CompiledPhrase[]; avoid: Set<string> }>();
for (const [key, entry] of Object.entries(FIELD_NAMES)) {
  compiled.set(key, {
    phrases: entry.phrases.map((phrase) => ({ ...phrase, words: nameWords(phrase.text), joined: nameWords(phrase.text).join('') })),
    avoid: new Set((entry.avoid ?? []).flatMap(nameWords)),
  });
}

function containsRun(words: readonly string[], run: readonly string[]): boolean {
  if (run.length === 0 || run.length > words.length) return false;
  for (let start = 0; start + run.length <= words.length; start++) {
    if (run.every((word, i) => words[start + i] === word)) return true;
  }
  return false;
}

/** How well `name` names the target field `key` (`request.customer.inn`); undefined when not at all. */
export function matchName(key: string, name: string): NameMatch | undefined {
  const entry = compiled.get(key);
  if (!entry) return undefined;
  const words = nameWords(name);
  if (words.some((word) => entry.avoid.has(word))) return undefined;
  const joined = words.join('');
  let best: NameMatch | undefined;
  for (const phrase of entry.phrases) {
    let score = 0;
    let how: NameMatch['how'] = 'exact';
    if (phrase.joined === joined) score = phrase.weight;
    else if (phrase.weight >= PART_MIN_WEIGHT && containsRun(words, phrase.words)) {
      score = phrase.weight * PART_FACTOR;
      how = 'part';
    }
    if (score > (best?.score ?? 0)) best = { score, phrase: phrase.text, how };
  }
  return best;
}
