/**
 * What the validators say about a payload: one issue per field, with the error code that fits it
 * best. Shared by the request and confirmation validators and the line checks.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import { toFieldName } from '../platform/contract.js';

/** One thing wrong with a payload, by field (`items[1].quantity`). */
export interface FieldIssue {
  field: string;
  code: ErrorCode;
  reason: string;
}

/** zod issues as field issues, each with the code that fits it best. */
export function zodIssues(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.map((issue) => {
    const field = toFieldName(issue.path);
    return { field, code: codeOf(issue, field), reason: reasonOf(issue) };
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

/** One issue per field: the first found (our specific checks run before the schema). */
export function dedupeByField(issues: FieldIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    if (seen.has(issue.field)) return false;
    seen.add(issue.field);
    return true;
  });
}
