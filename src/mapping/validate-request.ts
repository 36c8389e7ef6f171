/**
 * Validating a mapped request: everything in `createRequestSchema` (the contract), plus the INN
 * check digits and "desiredDate not in the past". Pure: the clock comes in as `now`.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import { createRequestSchema, isCalendarDate, toFieldName } from '../platform/contract.js';
import { findDuplicateLines } from './check-lines.js';
import { explainInn } from './inn.js';
import { localDateOf } from './parse-date.js';

/** One thing wrong with a payload, by field (`items[1].quantity`). */
export interface FieldIssue {
  field: string;
  code: ErrorCode;
  reason: string;
}

export interface RequestRules {
  now: Date;
  rejectPastDates: boolean;
}

/** Every issue of a request payload; an empty list means it can be submitted. */
export function validateRequest(payload: unknown, rules: RequestRules): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const request = payload as { customer?: { inn?: unknown }; delivery?: { desiredDate?: unknown } };
  const inn = request.customer?.inn;
  if (typeof inn === 'string') {
    const reason = explainInn(inn);
    if (reason) issues.push({ field: 'customer.inn', code: 'INN_INVALID', reason });
  }
  const date = request.delivery?.desiredDate;
  if (rules.rejectPastDates && typeof date === 'string' && isCalendarDate(date) && date < localDateOf(rules.now)) {
    issues.push({ field: 'delivery.desiredDate', code: 'DATE_IN_PAST', reason: `lies in the past (today is ${localDateOf(rules.now)})` });
  }
  issues.push(...findDuplicateLines(payload));
  const parsed = createRequestSchema.safeParse(payload);
  if (!parsed.success) issues.push(...zodIssues(parsed.error.issues));
  return dedupeByField(issues);
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
