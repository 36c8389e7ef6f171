/**
 * What a problem of a mapping (or config) file says, as a key of the console's catalogue and its
 * parameters (`MessageText`): the console's mapping page words it in its own language from these,
 * while `check`, the log and the CLI keep the English sentence (`ConfigProblem.message`).
 *
 * zod's own issues are keyed by their code and limits (`invalid_type` → `expectedString`); our
 * refinements carry their key in the issue (`params.text`, `issueWithText`); our messages on zod's
 * checks (`.length(1, 'must be one character')`) are keyed by their words, the one place where an
 * English sentence is looked up, since zod keeps nothing else of them. An issue none of these fits
 * says `invalidValue` and quotes zod's words (`said`).
 */
import type { z } from 'zod';
import type { MessageText } from '../errors.js';

/** A custom issue that carries its console text: `ctx.addIssue(issueWithText(message, text, path))`. */
export function issueWithText(message: string, text: MessageText, path: PropertyKey[] = []): z.core.$ZodRawIssue {
  return { code: 'custom', path, message, params: { text }, input: undefined };
}

/** Our messages on zod's checks, by their words (the schemas that write them: mapping-schema, export-format-schema, common). */
const OWN_MESSAGES: Readonly<Record<string, MessageText>> = {
  'must be one character': { key: 'oneCharacter' },
  'must be a path': { key: 'notAPath' },
  'must be UTC, local, or an offset like +03:00': { key: 'timeZoneValue' },
  'must not hold [ ] : * ? / \\ or control characters': { key: 'sheetNameCharacters' },
};

/** zod's type names, as the catalogue says them. */
const EXPECTED: Readonly<Record<string, string>> = {
  string: 'expectedString',
  number: 'expectedNumber',
  int: 'expectedInteger',
  boolean: 'expectedBoolean',
  object: 'expectedMapping',
  record: 'expectedMapping',
  array: 'expectedList',
};

function isMessageText(value: unknown): value is MessageText {
  return typeof value === 'object' && value !== null && typeof (value as MessageText).key === 'string';
}

/** The console's text of one zod issue; a key not written at all is the caller's `keyRequired`. */
export function issueText(issue: z.core.$ZodIssue): MessageText {
  if (issue.code === 'custom' && isMessageText(issue.params?.text)) return issue.params.text;
  const own = OWN_MESSAGES[issue.message];
  if (own !== undefined) return own;
  switch (issue.code) {
    case 'invalid_type':
      // zod keeps no input on an issue: whether the key is written at all is the caller's to tell (`isMissing`).
      return EXPECTED[issue.expected] !== undefined ? { key: EXPECTED[issue.expected]! } : { key: 'invalidValue', params: { said: issue.message } };
    case 'invalid_value':
      return { key: 'oneOf', params: { values: issue.values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ') } };
    case 'too_small':
      return sizeText('Small', issue.origin, Number(issue.minimum), issue.exact === true, issue.inclusive !== false);
    case 'too_big':
      return sizeText('Big', issue.origin, Number(issue.maximum), issue.exact === true, issue.inclusive !== false);
    case 'invalid_format':
      return issue.format === 'regex'
        ? { key: 'patternMismatch', params: { pattern: issue.pattern ?? '' } }
        : { key: 'invalidValue', params: { said: issue.message } };
    case 'invalid_union':
      return { key: 'noAllowedForm' };
    case 'unrecognized_keys':
      return { key: 'unknownKey' };
    default:
      return { key: 'invalidValue', params: { said: issue.message } };
  }
}

/** A length, a count or a number out of its bounds: `must not be empty`, `must be at most 3 characters`, `must be at least 1`. */
function sizeText(side: 'Small' | 'Big', origin: string, n: number, exact: boolean, inclusive: boolean): MessageText {
  if (origin === 'string') {
    if (exact) return { key: 'exactCharacters', params: { n } };
    if (side === 'Small' && n <= 1) return { key: 'notEmpty' };
    return { key: side === 'Small' ? 'atLeastCharacters' : 'atMostCharacters', params: { n } };
  }
  if (origin === 'array' || origin === 'set') {
    if (side === 'Small' && n <= 1) return { key: 'listEmpty' };
    return { key: side === 'Small' ? 'atLeastItems' : 'atMostItems', params: { n } };
  }
  return { key: side === 'Small' ? (inclusive ? 'atLeast' : 'above') : inclusive ? 'atMost' : 'below', params: { limit: n } };
}
