/**
 * How well one column fits one target field, 0..1, with the reason. The rule:
 *
 * - the name: a dictionary phrase that is the whole name scores its weight (0.95 strong, 0.8
 *   generic); a strong phrase inside a longer name scores 0.75 of it (0.71);
 * - the content confirms (+0.05, at most 0.99) or, with no name at all, decides alone for the
 *   kinds of values that say what they are: INN check digits 0.85, platform order ids 0.85,
 *   e-mails 0.8, currencies 0.75, phones 0.7, a 1, 2, 3… line counter 0.7, the only date column
 *   0.65, organisation names 0.65;
 * - the content contradicts (values that are not dates, not numbers, fail the INN check; a request
 *   field that changes between the rows of one request): the score is halved, so a name alone no
 *   longer passes the threshold (0.6).
 */
import { matchName } from './names.js';
import type { ColumnProfile } from './profile-column.js';
import type { TargetField } from './targets.js';
import type { GroupKey } from './choose-grouping.js';
import { shown } from './shown.js';
import { phrase, type Phrase, type SummaryKey } from './summary-words.js';

/** Shares from which the values are what the field expects. */
const FITS = 0.9;
/** Below this share the values contradict the field. */
const CONTRADICTS = 0.5;

const ORGANISATION = /^(ООО|АО|ОАО|ЗАО|ПАО|НАО|ИП|ФГУП|ГУП|МУП|ФГБУ|LLC|Ltd|JSC|GmbH|Inc)(?=[\s"«.,]|$)|«/u;
/** Fields holding a person's or a place's words: values that are all numbers or dates are not those. */
const WORDS_FIELDS = new Set([
  'request.customer.name',
  'request.contact.name',
  'request.delivery.city',
  'request.delivery.address',
  'items.name',
  'items.unit',
]);

export interface ScoreContext {
  format: 'csv' | 'json' | 'ndjson';
  /** CSV: the grouping column, which alone is the key field. */
  key: GroupKey | undefined;
  /** Date columns per level, for a date matched by content alone. */
  dateColumns: Record<'record' | 'line', number>;
  /** What one group of rows is, in reasons. */
  noun: Noun;
}

/** What one group of rows is: a request, an order (a confirmations flow), a CommerceML order document. */
export type Noun = 'request' | 'order' | 'orderDocument';

/** The noun in a reason: `each request`, `one request`, `a request`. */
export const nounPhrase = (noun: Noun, form: 'each' | 'one' | 'a'): Phrase => phrase(`summary.noun.${noun}.${form}` as SummaryKey);

export interface ColumnScore {
  confidence: number;
  reason: Phrase;
  /** Keys of the field spec besides the source: `date`, `map`. */
  options: Record<string, unknown>;
}

const round = (value: number) => Math.round(value * 100) / 100;
const percent = (share: number, values: number): Phrase => phrase('summary.why.nOfM', { n: Math.round(share * values), of: values });

export function scoreColumn(target: TargetField, profile: ColumnProfile, ctx: ScoreContext): ColumnScore | undefined {
  const column = profile.column;
  if (ctx.format !== 'csv' && column.level !== target.level) return undefined;
  if (target.expect === 'key' && ctx.format === 'csv') {
    return ctx.key?.column === column.name ? { confidence: ctx.key.confidence, reason: ctx.key.keyReason, options: {} } : undefined;
  }
  const tally = tallyName(target, profile);
  if (tally.values === 0) {
    if (!tally.named) return undefined;
    weighEmptyColumn(tally, target, profile);
  } else {
    weighContent(tally, target, profile, ctx);
  }
  weighGrouping(tally, target, profile, ctx);
  if (tally.score <= 0) return undefined;
  return { confidence: round(tally.score), reason: phrase('summary.why.list', { items: tally.why }), options: tally.options };
}

/** A score as it is built: the name's, then raised, halved or capped by what the content says. */
interface Tally {
  /** A dictionary phrase matched the column's name. */
  named: boolean;
  score: number;
  why: Phrase[];
  options: Record<string, unknown>;
  /** The number of non-empty values profiled. */
  values: number;
}

function tallyName(target: TargetField, profile: ColumnProfile): Tally {
  const column = profile.column;
  const name = matchName(target.key, column.name);
  const why: Phrase[] = [];
  if (name) {
    why.push(
      name.how === 'exact'
        ? phrase('summary.why.named', { column: shown(column.name) })
        : phrase('summary.why.contains', { column: shown(column.name), phrase: `"${name.phrase}"` }),
    );
  }
  return { named: name !== undefined, score: name?.score ?? 0, why, options: {}, values: profile.values.length };
}

/** The content says what the name says (or, without a name, says it alone with `alone`). */
function confirm(tally: Tally, alone: number, text: Phrase): void {
  tally.score = tally.named ? Math.min(0.99, tally.score + 0.05) : alone;
  tally.why.push(text);
}

function contradict(tally: Tally, text: Phrase): void {
  tally.score *= 0.5;
  tally.why.push(phrase('summary.why.but', { text }));
}

/** Confirms from a share of FITS, contradicts below CONTRADICTS, and only says the share between. */
function byShare(tally: Tally, share: number, alone: number, fitsKey: SummaryKey, failsKey: SummaryKey): void {
  const fits = phrase(fitsKey);
  if (share >= FITS) confirm(tally, alone, phrase('summary.why.share', { fits, share: percent(share, tally.values) }));
  else if (share < CONTRADICTS) contradict(tally, phrase(failsKey));
  else tally.why.push(phrase('summary.why.someValues', { share: percent(share, tally.values), fits }));
}

/** A named column without values: an empty column is a poor source for a required field; a sample with no rows says nothing. */
function weighEmptyColumn(tally: Tally, target: TargetField, profile: ColumnProfile): void {
  if (profile.column.values.length === 0) tally.why.push(phrase('summary.why.noRowsToCheck'));
  else if (target.required) contradict(tally, phrase('summary.why.emptyRequired'));
  else tally.why.push(phrase('summary.why.emptyInSample'));
}

function weighContent(tally: Tally, target: TargetField, profile: ColumnProfile, ctx: ScoreContext): void {
  switch (target.expect) {
    case 'key':
      if (target.key === 'orderId') byShare(tally, profile.orderId, 0.85, 'summary.why.orderIdValues', 'summary.why.notOrderIds');
      else if (new Set(profile.values).size === profile.values.length) confirm(tally, 0, phrase('summary.why.distinct'));
      else contradict(tally, phrase('summary.why.shared'));
      break;
    case 'inn':
      byShare(tally, profile.inn, 0.85, 'summary.why.innPasses', 'summary.why.innFails');
      break;
    case 'email':
      byShare(tally, profile.email, 0.8, 'summary.why.emails', 'summary.why.notEmails');
      break;
    case 'phone':
      byShare(tally, profile.phone, 0.7, 'summary.why.phones', 'summary.why.notPhones');
      break;
    case 'currency':
      weighCurrency(tally, profile);
      break;
    case 'number':
      if (profile.number.share >= FITS) confirm(tally, 0, phrase('summary.why.numbers', { share: percent(profile.number.share, tally.values) }));
      else contradict(tally, phrase('summary.why.notNumbers'));
      break;
    case 'date':
      weighDate(tally, profile, ctx);
      break;
    case 'lineId':
      if (profile.counter === 'restarting') confirm(tally, 0.7, phrase('summary.why.linesNumbered', { each: nounPhrase(ctx.noun, 'each') }));
      else if (profile.counter === 'repeats') contradict(tally, phrase('summary.why.lineRepeats', { one: nounPhrase(ctx.noun, 'one') }));
      break;
    case 'text':
      if (WORDS_FIELDS.has(target.key)) weighWords(tally, target, profile);
      break;
    case 'comment':
      break;
  }
}

function weighCurrency(tally: Tally, profile: ColumnProfile): void {
  byShare(tally, profile.currency.share, 0.75, 'summary.why.currencies', 'summary.why.notCurrencies');
  if (Object.keys(profile.currency.map).length > 0) {
    tally.options.map = profile.currency.map;
    tally.why.push(phrase('summary.why.currencyMap', { list: Object.keys(profile.currency.map).map(shown).join(', ') }));
  }
}

function weighDate(tally: Tally, profile: ColumnProfile, ctx: ScoreContext): void {
  const date = profile.date;
  if (date === undefined) {
    contradict(tally, phrase('summary.why.notDates'));
    return;
  }
  const alone = ctx.dateColumns[profile.column.level] === 1 ? 0.65 : 0.45;
  confirm(
    tally,
    alone,
    phrase('summary.why.dates', { example: shown(date.example), format: date.format ?? 'YYYY-MM-DD', share: percent(date.share, tally.values) }),
  );
  if (date.format !== undefined) tally.options.date = date.format;
  if (date.ambiguousWith !== undefined) {
    tally.score = Math.min(tally.score, 0.75);
    tally.why.push(phrase('summary.why.dayTwelve', { twin: date.ambiguousWith }));
  }
}

/** A field of a person's or a place's words: organisation names tell a customer from a contact; numbers and dates are neither. */
function weighWords(tally: Tally, target: TargetField, profile: ColumnProfile): void {
  const organisations = profile.values.filter((value) => ORGANISATION.test(value)).length / tally.values;
  if (target.key === 'request.customer.name' && organisations >= CONTRADICTS) confirm(tally, 0.65, phrase('summary.why.organisations'));
  else if (target.key === 'request.contact.name' && organisations >= CONTRADICTS) contradict(tally, phrase('summary.why.isOrganisations'));
  else if (profile.number.share >= FITS || profile.date !== undefined) contradict(tally, phrase('summary.why.notWords'));
}

/** CSV: what the grouping says of a column's level. */
function weighGrouping(tally: Tally, target: TargetField, profile: ColumnProfile, ctx: ScoreContext): void {
  if (ctx.format === 'csv' && target.level === 'record' && profile.perRequest === false)
    contradict(tally, phrase('summary.why.changesWithin', { one: nounPhrase(ctx.noun, 'one') }));
  // A line's name or comment that never changes within a request is more likely the request's own.
  if (ctx.format === 'csv' && target.level === 'line' && profile.perRequest === true && (target.expect === 'comment' || target.key === 'items.name')) {
    tally.score *= 0.85;
    tally.why.push(phrase('summary.why.sameOnRows', { a: nounPhrase(ctx.noun, 'a') }));
  }
}
