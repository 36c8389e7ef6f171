/**
 * The small element tree a record is kept as, and the evaluation of parsed paths on it. Only the
 * elements inside one record are ever built (see `record-parser.ts`); each knows where its start
 * tag stands, for messages.
 */
import type { XmlPath, XmlStep } from '../../../config/xml-path.js';

/** One element of a record: local names only, namespace declarations dropped. */
export interface XmlNode {
  name: string;
  /** By local name, without `xmlns` declarations; an object without a prototype. */
  attributes: Record<string, string>;
  children: XmlNode[];
  /** The element's own text (its text and CDATA children, joined), untrimmed. */
  text: string;
  /** Where its start tag's `<` stands: line from 1, column from 1 (in characters). */
  line: number;
  column: number;
}

const hasValue = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * The value `path` reads from `node`: the text (or attribute) of the first element it reaches, in
 * document order, that has a non-blank value; alternatives are tried in order. Undefined when
 * nothing it reaches has a value. The text is returned as written (the field trims it).
 */
export function readPath(path: XmlPath, node: XmlNode): string | undefined {
  for (const steps of path.alternatives) {
    const value = firstValue(node, steps, 0);
    if (hasValue(value)) return value;
  }
  return undefined;
}

function firstValue(node: XmlNode, steps: readonly XmlStep[], index: number): string | undefined {
  const step = steps[index];
  if (step === undefined) return node.text;
  if (step.kind === 'attribute') return Object.hasOwn(node.attributes, step.name) ? node.attributes[step.name] : undefined;
  for (const child of node.children) {
    if (!matches(child, step)) continue;
    const value = firstValue(child, steps, index + 1);
    if (hasValue(value)) return value;
  }
  return undefined;
}

/**
 * Every non-blank value `path` reaches from `node`, in document order: those of its first
 * alternative that reaches any (as written, untrimmed).
 */
export function readAllValues(path: XmlPath, node: XmlNode): string[] {
  for (const steps of path.alternatives) {
    const found: string[] = [];
    collectValues(node, steps, 0, found);
    if (found.length > 0) return found;
  }
  return [];
}

function collectValues(node: XmlNode, steps: readonly XmlStep[], index: number, out: string[]): void {
  const step = steps[index];
  if (step === undefined) {
    if (hasValue(node.text)) out.push(node.text);
    return;
  }
  if (step.kind === 'attribute') {
    const value = Object.hasOwn(node.attributes, step.name) ? node.attributes[step.name] : undefined;
    if (hasValue(value)) out.push(value);
    return;
  }
  for (const child of node.children) if (matches(child, step)) collectValues(child, steps, index + 1, out);
}

/**
 * The elements `path` reaches from `node`, in document order: those of the first alternative that
 * reaches any. Attribute steps reach nothing (a lines path has none: the loader refuses them).
 */
export function selectElements(path: XmlPath, node: XmlNode): XmlNode[] {
  for (const steps of path.alternatives) {
    const found: XmlNode[] = [];
    collect(node, steps, 0, found);
    if (found.length > 0) return found;
  }
  return [];
}

function collect(node: XmlNode, steps: readonly XmlStep[], index: number, out: XmlNode[]): void {
  const step = steps[index];
  if (step === undefined) {
    out.push(node);
    return;
  }
  if (step.kind === 'attribute') return;
  for (const child of node.children) if (matches(child, step)) collect(child, steps, index + 1, out);
}

/** Whether an element is the one a step names, its condition included (a child's trimmed text, compared exactly). */
export function matches(node: XmlNode, step: XmlStep & { kind: 'element' }): boolean {
  if (node.name !== step.name) return false;
  const where = step.where;
  if (where === undefined) return true;
  return node.children.some((child) => child.name === where.child && child.text.trim() === where.equals);
}
