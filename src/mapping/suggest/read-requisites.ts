/**
 * The order documents of a CommerceML sample, read for what the preset's own run does not say:
 * each document's requisites (`ЗначенияРеквизитов/ЗначениеРеквизита`, a `Наименование` and a
 * `Значение`: the name-value pairs exporters put there for what the standard has no element for,
 * `Город доставки`, `Телефон`, `Дата доставки`), and in how many documents each of the preset's
 * request paths reads nothing (optional fields included, which the preset's run never reports).
 */
import type { MappingSpec } from '../../config/mapping-schema.js';
import { parseXmlPath, type XmlPath } from '../../config/xml-path.js';
import type { OpenedInput } from '../../shared/input-file.js';
import { readXmlRecords, xmlBytes, type XmlNode } from '../readers/xml-reader.js';
import { readPath } from '../readers/xml/xml-node.js';

/** Order documents read; a bigger sample adds time, not certainty. */
export const MAX_REQUISITE_DOCUMENTS = 2_000;
/** Distinct requisite names kept; an export that writes more is not writing requisites of an order. */
const MAX_REQUISITE_NAMES = 500;

export interface OrderDocuments {
  /** Order documents read (at most MAX_REQUISITE_DOCUMENTS). */
  documents: number;
  /** The sample holds more order documents than were read. */
  truncated: boolean;
  /** By requisite name (trimmed), its value in each document read, trimmed: `''` where the document has none. */
  requisites: Map<string, string[]>;
  /** By target key (`request.delivery.city`), the documents in which its path reads nothing. */
  empty: Map<string, number>;
}

/**
 * Read the order documents `spec` (the preset's) reads from `input`, and try `paths` (target key →
 * XML path) on each. The caller has mapped the sample with the same spec, so the file is an order
 * export the reader accepts.
 */
export async function readOrderDocuments(input: OpenedInput, spec: MappingSpec, paths: Readonly<Record<string, string>>): Promise<OrderDocuments> {
  const parsed = Object.entries(paths).flatMap(([key, text]) => {
    const path = parseXmlPath(text);
    return typeof path === 'string' ? [] : [[key, path] as [string, XmlPath]];
  });
  const out: OrderDocuments = { documents: 0, truncated: false, requisites: new Map(), empty: new Map() };
  for await (const record of readXmlRecords(xmlBytes(input.handle, spec.xml), spec)) {
    if (out.documents === MAX_REQUISITE_DOCUMENTS) {
      out.truncated = true;
      break;
    }
    const node = record.node as XmlNode;
    for (const [key, path] of parsed) {
      if ((readPath(path, node)?.trim() ?? '') === '') out.empty.set(key, (out.empty.get(key) ?? 0) + 1);
    }
    addRequisites(out, requisitesOf(node));
    out.documents += 1;
  }
  return out;
}

/** A document's requisites by name: the first non-empty value of each, as a path with a condition on the name reads it. */
export function requisitesOf(document: XmlNode): Map<string, string> {
  const found = new Map<string, string>();
  for (const list of document.children.filter((child) => child.name === 'ЗначенияРеквизитов')) {
    for (const requisite of list.children.filter((child) => child.name === 'ЗначениеРеквизита')) {
      const name = requisite.children.find((child) => child.name === 'Наименование')?.text.trim() ?? '';
      if (name === '' || found.get(name)) continue;
      const value = requisite.children.find((child) => child.name === 'Значение' && child.text.trim() !== '')?.text.trim() ?? '';
      found.set(name, value);
    }
  }
  return found;
}

/** One more document's requisites, as one more row of each requisite's column. */
function addRequisites(out: OrderDocuments, found: Map<string, string>): void {
  for (const name of found.keys()) {
    if (!out.requisites.has(name) && out.requisites.size < MAX_REQUISITE_NAMES) out.requisites.set(name, Array<string>(out.documents).fill(''));
  }
  for (const [name, values] of out.requisites) values.push(found.get(name) ?? '');
}
