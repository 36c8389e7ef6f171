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
  const name = matchName(target.key, column.name);
  let score = name?.score ?? 0;
  const why: string[] = [];
  if (name) why.push(name.how === 'exact' ? `named ${shown(column.name)}` : `${shown(column.name)} contains "${name.phrase}"`);
  const options: Record<string, unknown> = {};
  const n = profile.values.length;

  /** The content says what the name says (or, without a name, says it alone with `alone`). */
  const confirm = (alone: number, text: string) => {
    score = name ? Math.min(0.99, score + 0.05) : alone;
    why.push(text);
  };
  const contradict = (text: string) => {
    score *= 0.5;
    why.push(`but ${text}`);
  };
  const byShare = (share: number, alone: number, fits: string, fails: string) => {
    if (share >= FITS) confirm(alone, `${fits} (${percent(share, n)})`);
    else if (share < CONTRADICTS) contradict(fails);
    else why.push(`${percent(share, n)} values ${fits}`);
  };

  if (n === 0) {
    if (!name) return undefined;
    // An empty column is a poor source for a required field; a sample with no rows says nothing.
    if (column.values.length === 0) why.push('no rows to check it on');
    else if (target.required) contradict('it is empty in the sample');
    else why.push('empty in the sample');
  } else {
    switch (target.expect) {
      case 'key':
        if (target.key === 'orderId') byShare(profile.orderId, 0.85, 'values are platform order ids', 'its values are not platform order ids');
        else if (new Set(profile.values).size === profile.values.length) confirm(0, 'a different value in each record');
        else contradict('records share values');
        break;
      case 'inn':
        byShare(profile.inn, 0.85, 'values pass the INN check digit', 'its values fail the INN check digit');
        break;
      case 'email':
        byShare(profile.email, 0.8, 'values are e-mail addresses', 'its values are not e-mail addresses');
        break;
      case 'phone':
        byShare(profile.phone, 0.7, 'values are phone numbers', 'its values are not phone numbers');
        break;
      case 'currency':
        byShare(profile.currency.share, 0.75, 'values are currencies', 'its values are not currency codes');
        if (Object.keys(profile.currency.map).length > 0) {
          options.map = profile.currency.map;
          why.push(`${Object.keys(profile.currency.map).map(shown).join(', ')} mapped to ISO codes`);
        }
        break;
      case 'number':
        if (profile.number.share >= FITS) confirm(0, `values are numbers (${percent(profile.number.share, n)})`);
        else contradict('its values are not numbers');
        break;
      case 'date': {
        const date = profile.date;
        if (date === undefined) {
          contradict('its values are not dates');
          break;
        }
        const alone = ctx.dateColumns[column.level] === 1 ? 0.65 : 0.45;
        confirm(alone, `dates like ${shown(date.example)} (${date.format ?? 'YYYY-MM-DD'}, ${percent(date.share, n)})`);
        if (date.format !== undefined) options.date = date.format;
        if (date.ambiguousWith !== undefined) {
          score = Math.min(score, 0.75);
          why.push(`every day is 12 or less, so ${date.ambiguousWith} fits as well: check one`);
        }
        break;
      }
      case 'lineId':
        if (profile.counter === 'restarting') confirm(0.7, `numbers the lines 1, 2, 3… in each ${ctx.noun}`);
        else if (profile.counter === 'repeats') contradict(`a value repeats within one ${ctx.noun} (LINE_DUPLICATE)`);
        break;
      case 'text':
        if (WORDS_FIELDS.has(target.key)) {
          const organisations = profile.values.filter((value) => ORGANISATION.test(value)).length / n;
          if (target.key === 'request.customer.name' && organisations >= CONTRADICTS) confirm(0.65, 'values are organisation names');
          else if (target.key === 'request.contact.name' && organisations >= CONTRADICTS) contradict('its values are organisation names');
          else if (profile.number.share >= FITS || profile.date !== undefined) contradict('its values are numbers or dates, not words');
        }
        break;
      case 'comment':
        break;
    }
  }

  if (ctx.format === 'csv' && target.level === 'record' && profile.perRequest === false) contradict(`it changes between the rows of one ${ctx.noun}`);
  // A line's name or comment that never changes within a request is more likely the request's own.
  if (ctx.format === 'csv' && target.level === 'line' && profile.perRequest === true && (target.expect === 'comment' || target.key === 'items.name')) {
    score *= 0.85;
    why.push(`the same on every row of a ${ctx.noun}`);
  }
  if (score <= 0) return undefined;
  return { confidence: round(score), reason: why.join('; '), options };
}
