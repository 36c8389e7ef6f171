/**
 * Validating a mapped request: everything in `createRequestSchema` (the contract; asked through its
 * quick twin `isCreateRequest` first), plus the INN check digits and "desiredDate not in the past".
 * Pure: the clock comes in as `now`.
 */
import { createRequestSchema, isCalendarDate } from '../platform/contract.js';
import { isCreateRequest } from '../platform/create-request-check.js';
import { findDuplicateLines } from './check-lines.js';
import { dedupeByField, zodIssues, type FieldIssue } from './field-issues.js';
import { explainInn } from './inn.js';
import { localDate } from '../shared/local-time.js';

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
    const why = explainInn(inn);
    if (why) issues.push({ field: 'customer.inn', code: 'INN_INVALID', ...why });
  }
  const date = request.delivery?.desiredDate;
  if (rules.rejectPastDates && typeof date === 'string' && isCalendarDate(date) && date < localDate(rules.now.getTime())) {
    const today = localDate(rules.now.getTime());
    issues.push({
      field: 'delivery.desiredDate',
      code: 'DATE_IN_PAST',
      reason: `lies in the past (today is ${today})`,
      text: { key: 'pastDate', params: { today } },
    });
  }
  issues.push(...findDuplicateLines(payload));
  // The schema runs only for a request the quick check refuses: its issues are what a user reads.
  if (!isCreateRequest(payload)) {
    const parsed = createRequestSchema.safeParse(payload);
    if (!parsed.success) issues.push(...zodIssues(parsed.error.issues));
  }
  return dedupeByField(issues);
}
