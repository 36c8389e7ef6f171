/**
 * The element paths of an XML mapping (`record:`, `lines:`, and field `path:`s), parsed once when
 * the mapping loads so that a mistake is reported at start, not discovered per record.
 *
 * Syntax: steps separated by `/`, each an element's local name (namespace prefixes are ignored),
 * optionally with a predicate on a child's text (`Контрагент[Роль='Покупатель']`); a last step may
 * be `@attribute`; `a | b` tries `a`, then `b`, and takes the first that has a value.
 *
 * Not written yet: every path is accepted as one step per name.
 */

/** One step: an element by name (with an optional predicate on a child's text), or an attribute. */
export type XmlStep = { kind: 'element'; name: string; where?: { child: string; equals: string } } | { kind: 'attribute'; name: string };

/** A parsed path: alternatives, each a list of steps. */
export interface XmlPath {
  text: string;
  alternatives: XmlStep[][];
}

/** Parse `text`; a string is the reason it is not a valid path. */
export function parseXmlPath(text: string): XmlPath | string {
  return { text, alternatives: [text.split('/').map((name) => ({ kind: 'element', name }))] };
}
