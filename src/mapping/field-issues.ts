/**
 * What the validators say about a payload: one issue per field, with the error code that fits it
 * best. Shared by the request and confirmation validators and the line checks.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { MessageText } from '../shared/types.js';
import { toFieldName } from '../platform/contract.js';

/** One thing wrong with a payload, by field (`items[1].quantity`). */
export interface FieldIssue {
  field: string;
  code: ErrorCode;
  reason: string;
  /** The reason for the console, as a catalogue key. */
  text: MessageText;
}

/** zod issues as field issues, each with the code that fits it best. */
export function zodIssues(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.map((issue) => {
    const field = toFieldName(issue.path);
    return { field, code: codeOf(issue, field), reason: reasonOf(issue), text: textOf(issue) };
  });
}

function codeOf(issue: z.core.$ZodIssue, field: string): ErrorCode {
  if (field === 'items' && issue.code === 'too_small') return 'LINES_MISSING';
  if (issue.code === 'custom' && issue.message.startsWith('duplicate lineId')) return 'LINE_DUPLICATE';
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'FIELD_REQUIRED';
  if (issue.code === 'too_small' && issue.origin === 'string') return 'FIELD_REQUIRED';
  if (field === 'customer.inn') return 'INN_INVALID';
  return 'FIELD_INVALID';
}

function reasonOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.code === 'invalid_type') return `must be a ${issue.expected}`;
  return issue.message;
}

/**
 * The contract's complaint as a catalogue key, from zod's issue code and its limits (the contract's
 * own English messages stay in `reason`). A complaint no key fits falls back to the error code's
 * own text in the console.
 */
function textOf(issue: z.core.$ZodIssue): MessageText {
  if (issue.code === 'invalid_type')
    return issue.input === undefined ? { key: 'required' } : { key: 'wrongType', params: { expected: String(issue.expected) } };
  if (issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array')) {
    return { key: issue.origin === 'string' ? 'tooLong' : 'tooManyLines', params: { n: Number(issue.maximum) } };
  }
  if (issue.code === 'too_small' && issue.origin === 'array') return { key: 'noLines' };
  if (issue.code === 'too_small' && issue.origin === 'string') return { key: 'empty' };
  if (issue.code === 'too_small' || issue.code === 'too_big') return { key: 'outOfRange' };
  if (issue.code === 'invalid_format' && issue.format === 'email') return { key: 'notEmail' };
  if (issue.code === 'invalid_format') return { key: 'wrongShape' };
  if (issue.code === 'unrecognized_keys') return { key: 'unknownField' };
  return { key: 'invalid' };
}

/** One issue per field: the first found (our specific checks run before the schema). */
export function dedupeByField(issues: FieldIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    if (seen.has(issue.field)) return false;
    seen.add(issue.field);
    return true;
  });
}
