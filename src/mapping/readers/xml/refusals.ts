/**
 * What the XML reader says when it refuses a file: each refusal is a `ConnectorError` whose
 * message names the place (and the element, where there is one) and whose `details` carry the
 * `line` and `column`, for the file-level problem.
 */
import { ConnectorError, type MessageText } from '../../../errors.js';

/** An element as the reader saw it open. */
export interface OpenedAt {
  name: string;
  line: number;
  column: number;
}

export function describe(element: OpenedAt): string {
  return `<${element.name}> opened at line ${element.line}, column ${element.column}`;
}

export function limitExceeded(message: string, line: number, column: number, text: MessageText): ConnectorError {
  return new ConnectorError('XML_LIMIT_EXCEEDED', message, { details: { line, column }, text });
}

/** Nothing of the declaration is quoted: it may hold a path or a URL to a secret. */
export function dtdRefused(line: number, column: number): ConnectorError {
  return new ConnectorError(
    'XML_DTD_REFUSED',
    `carries a DOCTYPE declaration (line ${line}, column ${column}); files with a DTD are refused, their entities never fetched or expanded: export it without one`,
    { details: { line, column }, text: { key: 'xmlDoctype', params: { line, column } } },
  );
}

/** saxes's reason, without the `line:column:` it starts with (the message says where in words). */
export function malformed(saxesMessage: string, line: number, column: number): ConnectorError {
  const reason = saxesMessage.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
  return new ConnectorError('XML_MALFORMED', `is not well-formed XML at line ${line}, column ${column}: ${reason}`, {
    details: { line, column },
    text: { key: 'xmlMalformed', params: { line, column, said: reason } },
  });
}

/** The file ends inside `inner` (and, when it is another, inside the record being read). */
export function cutShort(inner: OpenedAt, record: OpenedAt | undefined, line: number, column: number): ConnectorError {
  const within = record === undefined || record === inner ? '' : `, within the record ${describe(record)}`;
  return new ConnectorError('XML_MALFORMED', `ends inside ${describe(inner)}${within}: the file is cut short (line ${line}, column ${column})`, {
    details: { line, column },
    text: { key: 'xmlCutShort', params: { element: inner.name, line, column } },
  });
}

/**
 * What saxes is holding, from the first characters after its last event (`<` included when that
 * event was a text, which saxes reports on reading the `<` after it).
 */
export function pendingConstruct(head: string, inStartTag: boolean): 'a DOCTYPE' | string {
  if (/^\s*<!DOCTYPE/i.test(head)) return 'a DOCTYPE';
  if (inStartTag) return 'an attribute value';
  if (head.startsWith('<!--')) return 'a comment';
  if (head.startsWith('<![CDATA[')) return 'a CDATA section';
  if (head.startsWith('<?')) return 'a processing instruction';
  return head.startsWith('<') ? 'a tag' : 'a text';
}
