/**
 * CommerceML requisites to request fields. A requisite is a name-value pair of an order document,
 * a column by another name: each one becomes a column of its values (one per document) and is
 * matched as a column header is (`match-fields.ts`: the dictionary, then the content; a date's
 * format from the same date detection). Only the requisites that (nearly) every order document
 * carries with a value are candidates, so a field read from one is not empty in the documents
 * that lack it; one carried by fewer documents is named in the reason the field stays a TODO.
 *
 * The field then reads the requisite alone (`ЗначенияРеквизитов/ЗначениеРеквизита[Наименование=
 * 'Город доставки']/Значение`): a field with a path of its own replaces the preset's.
 */
import { parseXmlPath } from '../../config/xml-path.js';
import { matchFields } from './match-fields.js';
import { matchName } from './names.js';
import { profileColumn } from './profile-column.js';
import type { OrderDocuments } from './read-requisites.js';
import { shown } from './shown.js';
import type { TargetField } from './targets.js';
import type { FieldSuggestion, SampleColumn } from './types.js';
import { phrase, type Phrase } from './summary-words.js';

/** The share of the order documents that must carry a requisite, with a value, for a field to read it. */
export const REQUISITE_SHARE = 0.9;

export interface RequisiteMatch {
  /** Fields read from a requisite, by target key (`request.delivery.city`). */
  fields: Map<string, FieldSuggestion>;
  /** For each of those fields, which requisite and how many documents carry it: `requisite "Город доставки", with a value in 3 of 3 order documents`. */
  evidence: Map<string, Phrase>;
  /** For a target no requisite could fill: a requisite that names it but too few documents carry. */
  hints: Map<string, Phrase>;
}

/** The path that reads the requisite `name`; undefined for a name no path condition can quote (it holds both `'` and `"`). */
export function requisitePath(name: string): string | undefined {
  const quote = !name.includes("'") ? "'" : !name.includes('"') ? '"' : undefined;
  if (quote === undefined) return undefined;
  const path = `ЗначенияРеквизитов/ЗначениеРеквизита[Наименование=${quote}${name}${quote}]/Значение`;
  return typeof parseXmlPath(path) === 'string' ? undefined : path;
}

/** Match the requisites of `read` to `targets` (request fields the preset leaves empty in some document). */
export function matchRequisites(read: OrderDocuments, targets: readonly TargetField[]): RequisiteMatch {
  const out: RequisiteMatch = { fields: new Map(), evidence: new Map(), hints: new Map() };
  const documents = read.documents;
  if (documents === 0 || targets.length === 0) return out;
  const carried = (values: readonly string[]) => values.filter((value) => value !== '').length;
  const ofDocuments = phrase(read.truncated ? 'summary.doc.ordersOfFirst' : 'summary.doc.ordersOf', { n: documents });

  const columns: SampleColumn[] = [];
  const scarce: SampleColumn[] = [];
  for (const [name, values] of read.requisites) {
    if (requisitePath(name) === undefined) continue;
    const column: SampleColumn = { name, level: 'record', values, groups: values.map((_, index) => index) };
    (carried(values) >= documents * REQUISITE_SHARE ? columns : scarce).push(column);
  }
  const profiles = columns.map(profileColumn);
  const dateColumns = { record: profiles.filter((profile) => profile.date !== undefined).length, line: 0 };
  const { fields } = matchFields(targets, profiles, { format: 'json', key: undefined, dateColumns, noun: 'orderDocument' }, false);

  for (const field of fields) {
    const source = field.source;
    if (source === undefined || !('path' in source)) continue;
    const carriedBy = carried(read.requisites.get(source.path)!);
    const reason = phrase('summary.why.requisite', { path: shown(source.path), carried: carriedBy, documents: ofDocuments, why: field.reason });
    out.fields.set(field.key, { ...field, source: { path: requisitePath(source.path)! }, reason });
    out.evidence.set(field.key, phrase('summary.note.requisite', { key: field.key, path: shown(source.path), carried: carriedBy, documents: ofDocuments }));
  }
  for (const target of targets) {
    if (out.fields.has(target.key)) continue;
    const named = scarce.find((column) => matchName(target.key, column.name) !== undefined);
    if (named)
      out.hints.set(target.key, phrase('summary.why.requisiteScarce', { path: shown(named.name), carried: carried(named.values), documents: ofDocuments }));
  }
  return out;
}
