/**
 * Messages in the exchange folder for other codes: a `Message_*.xml` or `.zip` that is neither
 * 1C's message to this exchange nor our reply. The intake leaves such a file alone, so without a
 * word 1C and the connector would wait for each other for ever; the usual cause is a code typed
 * differently in 1C and in the config, and the file's name says which (1C names its messages
 * `Message_<its code>_<our code>`). Pure: the folder's names and the flow's codes in, what each
 * stray file tells out.
 *
 * - `node`: 1C writes to another code than `enterpriseData.node` (the prefix typed in 1C's wizard
 *   for the other program is not the config's);
 * - `peer`: 1C writes as another code than `enterpriseData.peer` (its infobase prefix, or its UUID);
 * - `both`: neither code is this exchange's (another exchange's file, or both typed differently);
 * - `mixed`: both codes are this exchange's, one transliterated and one not (1C names both alike);
 * - `swapped`: our reply's name (or its `.zip`, or other case), which this exchange has never
 *   written: 1C's message, with the two codes swapped in the config;
 * - `reply`: a message to 1C or from this program's code, not 1C's (a reply under earlier codes);
 * - `unreadable`: a name whose codes cannot be told apart.
 */
import { isMessageFileName, isPeerMessageName, parseMessageName, replyName, transliterate, type ExchangeCodes } from './message-names.js';

export const STRAY_KIND = {
  node: 'node',
  peer: 'peer',
  both: 'both',
  mixed: 'mixed',
  swapped: 'swapped',
  reply: 'reply',
  unreadable: 'unreadable',
} as const;
export type StrayKind = (typeof STRAY_KIND)[keyof typeof STRAY_KIND];

/** A message file in the folder for other codes, with the codes its name carries (null when it carries none that can be read). */
export interface StrayMessage {
  name: string;
  kind: StrayKind;
  prefix: string | null;
  from: string | null;
  to: string | null;
}

/** A code in a name is the configured one as it is, or as 1C transliterates it. */
const sameCode = (code: string, configured: string): boolean => code === configured || code === transliterate(configured);

/**
 * What `name` is, when it is a message file for other codes; null for 1C's message to us, our
 * reply (in either form, once this exchange has written one: `replied`), and any other file.
 */
export function strayMessageOf(name: string, codes: ExchangeCodes, replied: boolean): StrayMessage | null {
  if (!isMessageFileName(name) || isPeerMessageName(name, codes)) return null;
  const ours = name === replyName(codes, false) || name === replyName(codes, true);
  if (ours && replied) return null;
  const parsed = parseMessageName(name);
  if (parsed === null) return { name, kind: 'unreadable', prefix: null, from: null, to: null };
  const { prefix, from, to } = parsed;
  const fromNode = sameCode(from, codes.node);
  const toPeer = sameCode(to, codes.peer);
  let kind: StrayKind;
  if (fromNode && toPeer) kind = 'swapped';
  else if (fromNode || toPeer) kind = 'reply';
  else if (sameCode(to, codes.node)) kind = sameCode(from, codes.peer) ? 'mixed' : 'peer';
  else kind = sameCode(from, codes.peer) ? 'node' : 'both';
  return { name, kind, prefix, from, to };
}

/** The message files for other codes among a folder's names, in name order. */
export function strayMessagesIn(names: Iterable<string>, codes: ExchangeCodes, replied: boolean): StrayMessage[] {
  const strays: StrayMessage[] = [];
  for (const name of names) {
    const stray = strayMessageOf(name, codes, replied);
    if (stray !== null) strays.push(stray);
  }
  return strays.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const RESTART = 'restart the service (systemctl restart procurement-connector)';

/** What a stray message tells and what to do, in English (the log and the console's JSON; the console's pages word it from its `kind`). */
export function describeStrayMessage(stray: StrayMessage, codes: ExchangeCodes): string {
  const { name, from, to, prefix } = stray;
  switch (stray.kind) {
    case 'node':
      return `${name}: 1C writes to the code ${to}: this program's code in 1C is ${to}, the config says ${codes.node} (enterpriseData.node); set node: ${to} and ${RESTART}, or type ${codes.node} as the other program's prefix in 1C`;
    case 'peer':
      return `${name}: 1C writes as ${from}${prefix === null ? '' : ` (its exchange UUID; its infobase prefix is ${prefix})`}: 1C's code is ${from}, the config says ${codes.peer} (enterpriseData.peer); set peer: ${from} and ${RESTART}`;
    case 'both':
      return `${name}: written by ${from} to ${to}, while this exchange is ${codes.peer} to ${codes.node} (enterpriseData.peer, enterpriseData.node): another exchange's message, or both codes differ; if 1C writes it for this program, set peer: ${from} and node: ${to} and ${RESTART}`;
    case 'mixed':
      return `${name}: its codes ${from} and ${to} are this exchange's, but one is transliterated and the other not, which 1C never writes: find out what wrote it`;
    case 'swapped':
      return `${name}: a message from ${from} to ${to}, which this program did not write: if 1C wrote it, the codes are swapped in the config (1C's code is ${from}, this program's ${to}); set peer: ${from} and node: ${to} and ${RESTART}`;
    case 'reply':
      return `${name}: a message from ${from} to ${to}, written to 1C rather than by it (a reply of this program under earlier codes?); 1C reads this program's reply as ${replyName(codes, false)}: delete the file once it is not needed`;
    case 'unreadable':
      return `${name}: its name carries no codes that can be told apart (1C writes Message_<its code>_<this program's code>): find out what wrote it`;
  }
}
