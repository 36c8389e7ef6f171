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
  /** What one group of rows is, in reasons: `request` or `order`. */
  noun: string;
}

export interface ColumnScore {
  confidence: number;
  reason: string;
  /** Keys of the field spec besides the source: `date`, `map`. */
  options: Record<string, unknown>;
}

const round = (value: number) => Math.round(value * 100) / 100;
const percent = (share: number, values: number) => `${Math.round(share * values)} of ${values}`;

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
  return { confidence: round(tally.score), reason: tally.why.join('; '), options: tally.options };
}

/** A score as it is built: the name's, then raised, halved or capped by what the content says. */
interface Tally {
  /** A dictionary phrase matched the column's name. */
  named: boolean;
  score: number;
  why: string[];
  options: Record<string, unknown>;
  /** The number of non-empty values profiled. */
  values: number;
}

function tallyName(target: TargetField, profile: ColumnProfile): Tally {
  const column = profile.column;
  const name = matchName(target.key, column.name);
  const why: string[] = [];
  if (name) why.push(name.how === 'exact' ? `named ${shown(column.name)}` : `${shown(column.name)} contains "${name.phrase}"`);
  return { named: name !== undefined, score: name?.score ?? 0, why, options: {}, values: profile.values.length };
}

/** The content says what the name says (or, without a name, says it alone with `alone`). */
function confirm(tally: Tally, alone: number, text: string): void {
  tally.score = tally.named ? Math.min(0.99, tally.score + 0.05) : alone;
  tally.why.push(text);
}

function contradict(tally: Tally, text: string): void {
  tally.score *= 0.5;
  tally.why.push(`but ${text}`);
}

/** Confirms from a share of FITS, contradicts below CONTRADICTS, and only says the share between. */
function byShare(tally: Tally, share: number, alone: number, fits: string, fails: string): void {
  if (share >= FITS) confirm(tally, alone, `${fits} (${percent(share, tally.values)})`);
  else if (share < CONTRADICTS) contradict(tally, fails);
  else tally.why.push(`${percent(share, tally.values)} values ${fits}`);
}

/** A named column without values: an empty column is a poor source for a required field; a sample with no rows says nothing. */
function weighEmptyColumn(tally: Tally, target: TargetField, profile: ColumnProfile): void {
  if (profile.column.values.length === 0) tally.why.push('no rows to check it on');
  else if (target.required) contradict(tally, 'it is empty in the sample');
  else tally.why.push('empty in the sample');
}

function weighContent(tally: Tally, target: TargetField, profile: ColumnProfile, ctx: ScoreContext): void {
  switch (target.expect) {
    case 'key':
      if (target.key === 'orderId') byShare(tally, profile.orderId, 0.85, 'values are platform order ids', 'its values are not platform order ids');
      else if (new Set(profile.values).size === profile.values.length) confirm(tally, 0, 'a different value in each record');
      else contradict(tally, 'records share values');
      break;
    case 'inn':
      byShare(tally, profile.inn, 0.85, 'values pass the INN check digit', 'its values fail the INN check digit');
      break;
    case 'email':
      byShare(tally, profile.email, 0.8, 'values are e-mail addresses', 'its values are not e-mail addresses');
      break;
    case 'phone':
      byShare(tally, profile.phone, 0.7, 'values are phone numbers', 'its values are not phone numbers');
      break;
    case 'currency':
      weighCurrency(tally, profile);
      break;
    case 'number':
      if (profile.number.share >= FITS) confirm(tally, 0, `values are numbers (${percent(profile.number.share, tally.values)})`);
      else contradict(tally, 'its values are not numbers');
      break;
    case 'date':
      weighDate(tally, profile, ctx);
      break;
    case 'lineId':
      if (profile.counter === 'restarting') confirm(tally, 0.7, `numbers the lines 1, 2, 3… in each ${ctx.noun}`);
      else if (profile.counter === 'repeats') contradict(tally, `a value repeats within one ${ctx.noun} (LINE_DUPLICATE)`);
      break;
    case 'text':
      if (WORDS_FIELDS.has(target.key)) weighWords(tally, target, profile);
      break;
    case 'comment':
      break;
  }
}

function weighCurrency(tally: Tally, profile: ColumnProfile): void {
  byShare(tally, profile.currency.share, 0.75, 'values are currencies', 'its values are not currency codes');
  if (Object.keys(profile.currency.map).length > 0) {
    tally.options.map = profile.currency.map;
    tally.why.push(`${Object.keys(profile.currency.map).map(shown).join(', ')} mapped to ISO codes`);
  }
}

function weighDate(tally: Tally, profile: ColumnProfile, ctx: ScoreContext): void {
  const date = profile.date;
  if (date === undefined) {
    contradict(tally, 'its values are not dates');
    return;
  }
  const alone = ctx.dateColumns[profile.column.level] === 1 ? 0.65 : 0.45;
  confirm(tally, alone, `dates like ${shown(date.example)} (${date.format ?? 'YYYY-MM-DD'}, ${percent(date.share, tally.values)})`);
  if (date.format !== undefined) tally.options.date = date.format;
  if (date.ambiguousWith !== undefined) {
    tally.score = Math.min(tally.score, 0.75);
    tally.why.push(`every day is 12 or less, so ${date.ambiguousWith} fits as well: check one`);
  }
}

/** A field of a person's or a place's words: organisation names tell a customer from a contact; numbers and dates are neither. */
function weighWords(tally: Tally, target: TargetField, profile: ColumnProfile): void {
  const organisations = profile.values.filter((value) => ORGANISATION.test(value)).length / tally.values;
  if (target.key === 'request.customer.name' && organisations >= CONTRADICTS) confirm(tally, 0.65, 'values are organisation names');
  else if (target.key === 'request.contact.name' && organisations >= CONTRADICTS) contradict(tally, 'its values are organisation names');
  else if (profile.number.share >= FITS || profile.date !== undefined) contradict(tally, 'its values are numbers or dates, not words');
}

/** CSV: what the grouping says of a column's level. */
function weighGrouping(tally: Tally, target: TargetField, profile: ColumnProfile, ctx: ScoreContext): void {
  if (ctx.format === 'csv' && target.level === 'record' && profile.perRequest === false) contradict(tally, `it changes between the rows of one ${ctx.noun}`);
  // A line's name or comment that never changes within a request is more likely the request's own.
  if (ctx.format === 'csv' && target.level === 'line' && profile.perRequest === true && (target.expect === 'comment' || target.key === 'items.name')) {
    tally.score *= 0.85;
    tally.why.push(`the same on every row of a ${ctx.noun}`);
  }
}
