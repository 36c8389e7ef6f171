/**
 * The element paths of an XML mapping (`record:`, `lines:`, and field `path:`s), parsed once when
 * the mapping loads so that a mistake is reported at start, not discovered per record.
 *
 * Syntax, deliberately small (what CommerceML and ERP exports need, nothing that can blow up):
 *
 * - steps separated by `/`, each an element's local name: a namespace prefix is ignored
 *   (`cml:Документ` is `Документ`), as is any `xmlns` the file declares;
 * - a step may carry one condition on a child element's text, compared exactly after trimming it:
 *   `Контрагент[Роль='Покупатель']` (single or double quotes);
 * - the last step may be an attribute: `БазоваяЕдиница/@Код`, or `@Код` of the element itself;
 * - `.` alone is the element itself (its own text);
 * - `a | b | c`: alternatives, tried in order; the first that has a value wins.
 *
 * Not supported, and said so: `//` (search at any depth), `*`, `..`, positions (`[1]`), functions,
 * conditions on attributes. A `record:` path starts at the root element (its name included) and
 * may carry a condition on its last step only; a `lines:` path cannot end in an attribute.
 */

/** One step: an element by name (with an optional condition on a child's text), or an attribute. */
export type XmlStep = { kind: 'element'; name: string; where?: { child: string; equals: string } } | { kind: 'attribute'; name: string };

/** A parsed path: alternatives, each a list of steps (an empty list is `.`, the element itself). */
export interface XmlPath {
  text: string;
  alternatives: XmlStep[][];
}

/** What a path names: a field's value, the record elements (from the root), or the lines of a record. */
export type XmlPathRole = 'field' | 'record' | 'lines';

const SUPPORTED = "supported: Name/Name, Name[Child='value'], a last step @attribute, '.' alone, and a | b";
const NAME = /^[\p{L}_][\p{L}\p{N}_.\u00B7-]*$/u;

/** Parse `text`; a string is the reason it is not a valid path (for `role`, default a field's). */
export function parseXmlPath(text: string, role: XmlPathRole = 'field'): XmlPath | string {
  if (text.trim() === '') return 'is empty';
  const alternatives: XmlStep[][] = [];
  for (const part of splitOutsideQuotes(text, '|')) {
    if (typeof part !== 'string') return part.reason;
    const steps = parseAlternative(part.trim());
    if (typeof steps === 'string') return steps;
    const wrong = checkRole(steps, role);
    if (wrong !== undefined) return wrong;
    alternatives.push(steps);
  }
  return { text, alternatives };
}

function checkRole(steps: XmlStep[], role: XmlPathRole): string | undefined {
  if (role === 'field') return undefined;
  if (steps.some((step) => step.kind === 'attribute')) return `is a ${role} path, which names elements: it cannot have an @attribute step`;
  if (role === 'lines') return undefined;
  if (steps.length === 0) return "is a record path: it cannot be '.' (a record path starts at the root element's name, like КоммерческаяИнформация/Документ)";
  if (steps.slice(0, -1).some((step) => step.kind === 'element' && step.where !== undefined)) {
    return 'is a record path: a [condition] can only be on its last step (a record is decided when that element is complete, and the elements above it are not yet)';
  }
  return undefined;
}

function parseAlternative(text: string): XmlStep[] | string {
  if (text === '') return "has an empty alternative (a '|' with nothing on one side)";
  if (text === '.') return [];
  const parts = splitOutsideQuotes(text, '/');
  const empty = parts.findIndex((part) => typeof part === 'string' && part.trim() === '');
  if (empty === 0 && parts.length > 1) {
    return "starts with '/': write the path without it (a record path starts at the root element's name, others at the record or line)";
  }
  if (empty === parts.length - 1) return "ends with '/': a step is missing after it";
  if (empty !== -1) return `has '//' (search at any depth), which is not supported: write every step, like Товары/Товар (${SUPPORTED})`;
  const steps: XmlStep[] = [];
  for (const [index, raw] of parts.entries()) {
    if (typeof raw !== 'string') return raw.reason;
    const step = parseStep(raw.trim());
    if (step === 'self') return "has '.' among other steps: '.' (the element itself) stands alone";
    if (typeof step === 'string') return step;
    if (step.kind === 'attribute' && index < parts.length - 1) return `has @${step.name} before its last step: an attribute can only end a path`;
    steps.push(step);
  }
  return steps;
}

function parseStep(text: string): XmlStep | 'self' | string {
  if (text === '.') return 'self';
  const open = text.indexOf('[');
  const head = open === -1 ? text : text.slice(0, open).trim();
  if (head === '..') return `has '..' (the parent element), which is not supported: paths go down from the record or line (${SUPPORTED})`;
  if (head.includes('*')) return `has '*' (any element), which is not supported: name the element (${SUPPORTED})`;
  if (head.startsWith('@')) {
    if (open !== -1) return `has a [condition] on the attribute ${head}: conditions go on elements`;
    const name = localName(head.slice(1));
    return name === undefined ? `has an invalid attribute name "${head}"` : { kind: 'attribute', name };
  }
  if (open === -1) {
    if (text.includes(']')) return `has a ']' without its '[' in "${text}"`;
    const name = localName(text);
    return name === undefined ? invalidName(text) : { kind: 'element', name };
  }
  const name = localName(head);
  if (name === undefined) return head === '' ? `has a [condition] with no element before it in "${text}"` : invalidName(head);
  const where = parseCondition(text.slice(open));
  return typeof where === 'string' ? where : { kind: 'element', name, where };
}

/** `[Child='value']`, exactly one, nothing after it. */
function parseCondition(text: string): { child: string; equals: string } | string {
  const close = closingBracket(text);
  if (close === -1) return `has an unclosed '[' in "${text}"`;
  if (text.slice(close + 1).trim() !== '') {
    return text
      .slice(close + 1)
      .trim()
      .startsWith('[')
      ? 'has more than one [condition] on a step: one is supported'
      : `has text after ']' in "${text}"`;
  }
  const inner = text.slice(1, close).trim();
  if (/^\d+$/.test(inner)) return `has a position [${inner}], which is not supported: a condition is [Child='value'] (${SUPPORTED})`;
  const match = /^([^=\s'"[\]]+)\s*=\s*(?:'([^']*)'|"([^"]*)")$/u.exec(inner);
  const child = match === null ? undefined : localName(match[1]!);
  if (match === null || child === undefined) {
    return `has an unsupported condition [${inner}]: a condition is [Child='value'], a child element's text compared exactly (${SUPPORTED})`;
  }
  return { child, equals: match[2] ?? match[3]! };
}

/** The index of the `]` closing the `[` at 0, skipping quoted text; -1 when there is none. */
function closingBracket(text: string): number {
  let quote: string | undefined;
  for (let i = 1; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ']') return i;
  }
  return -1;
}

/** A name without its namespace prefix, or undefined when it is not an XML name. */
function localName(text: string): string | undefined {
  const parts = text.split(':');
  if (parts.length > 2 || !parts.every((part) => NAME.test(part))) return undefined;
  return parts[parts.length - 1];
}

function invalidName(text: string): string {
  if (/^\d+$/.test(text)) return `has a step "${text}" that is a number, not an element name`;
  return `has an invalid element name "${text}" (${SUPPORTED})`;
}

/** `text` split at `separator`, except inside quotes and brackets; an unclosed quote is reported. */
function splitOutsideQuotes(text: string, separator: string): (string | { reason: string })[] {
  const out: (string | { reason: string })[] = [];
  let quote: string | undefined;
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[') depth += 1;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === separator && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quote !== undefined) return [{ reason: `has an unclosed quote (${quote}) in "${text}"` }];
  out.push(text.slice(start));
  return out;
}
