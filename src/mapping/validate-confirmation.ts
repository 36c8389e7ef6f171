/**
 * Validating a mapped supplier confirmation: the order id's shape and everything in
 * `confirmOrderSchema` (prices with at most two decimals, three-letter currency, quantities not
 * negative, real dates, unique lines).
 */
import { confirmOrderSchema, ORDER_ID_PATTERN } from '../platform/contract.js';
import { findDuplicateLines } from './check-lines.js';
import { dedupeByField, zodIssues, type FieldIssue } from './field-issues.js';

/** Every issue of a confirmation for `orderId`; an empty list means it can be submitted. */
export function validateConfirmation(orderId: string | undefined, payload: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (orderId !== undefined && !ORDER_ID_PATTERN.test(orderId)) {
    issues.push({ field: 'orderId', code: 'FIELD_INVALID', reason: 'must look like ORD-2026-000123', text: { key: 'orderIdShape' } });
  }
  issues.push(...findDuplicateLines(payload));
  const parsed = confirmOrderSchema.safeParse(payload);
  if (!parsed.success) issues.push(...zodIssues(parsed.error.issues));
  return dedupeByField(issues);
}
