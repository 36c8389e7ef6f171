/**
 * English left in a Russian page: every Latin-script word of what a person reads that is not code,
 * a path or an identifier, nor a name the Russian text uses as it is. One word is enough (an order
 * status «shipped» is as untranslated as a sentence).
 *
 * - An identifier holds a digit, `.`, `_`, `/`, `:`, `@`, `=`, `<`, `>` or brackets (`customer.inn`,
 *   `rejected/`, `windows-1251`, `ReadWritePaths=`), is written in camelCase (`externalId`,
 *   `EnterpriseData`) or in capitals (`ERP`, `INN`, `CSV`).
 * - A command is code even when a sentence names it: `systemctl reload`, `systemctl restart
 *   procurement-connector`.
 * - A value after a key is code too: `transliterateFileNames: true`.
 * - The allow-list holds the product names and terms a Russian operator reads in Latin letters.
 */

/** Names and terms the Russian text writes in Latin letters. Short on purpose: a word added here is a word never translated. */
export const LATIN_ALLOWED: ReadonlySet<string> = new Set([
  'Excel',
  'Unicode',
  'Chromium',
  'Idempotency-Key',
  'procurement-connector',
  'e-mail',
  'drop-in',
  'X-Request-Id',
]);

/** Commands, their arguments included. */
const COMMANDS = /\b(?:systemctl|journalctl)(?:\s+(?:reload|restart|status|-u))*(?:\s+procurement-connector)?/g;
/** `key: value` (`transliterateFileNames: true`): the value is code. */
const KEY_VALUE = /\b[A-Za-z][\w.]*[A-Z.][\w.]*:\s+[A-Za-z]\w*/g;

function isIdentifier(word: string): boolean {
  return /[0-9._/:@=<>[\]]/.test(word) || /[a-z][A-Z]/.test(word) || /^[A-Z]{2,}s?$/.test(word);
}

/** The Latin words of `text` that are English of ours: neither code, paths, identifiers nor allowed names. */
export function latinWords(text: string): string[] {
  const plain = text.replace(COMMANDS, ' ').replace(KEY_VALUE, ' ');
  const words: string[] = [];
  // A token is what stands between spaces and the marks around words: a file name with Cyrillic
  // letters in it (`ack-ЗК-000102-2.csv`) or a key path (`items[0].quantity`) is one token.
  for (const match of plain.matchAll(/[^\s«»"“”„(),;!?]+/g)) {
    const token = match[0].replace(/[.:'’-]+$/, '');
    if (!/[A-Za-z]/.test(token) || isIdentifier(token)) continue;
    for (const word of token.match(/[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]/g) ?? []) if (!LATIN_ALLOWED.has(word)) words.push(word);
  }
  return words;
}
