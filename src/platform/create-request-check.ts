/**
 * `isCreateRequest(value)`: true exactly when `createRequestSchema.safeParse(value).success` would
 * be, without zod's work. Intake asks it first and runs the schema only for a request it refuses,
 * for the schema's issues (its messages stay the one source of what a user reads).
 *
 * Why a second shape of the schema: zod 4 spends about 35 µs on a 10-line request (each string
 * goes through its check pipeline and the trim makes a copy), which was a tenth of intake's time
 * for a large file; this walk takes about 4 µs. It reads the schema's own constants (limits,
 * patterns, zod's e-mail pattern, the control-character rule), and
 * `test/platform/create-request-check.test.ts` holds it to the schema on thousands of valid and
 * broken requests, so a change to one that the other misses fails there. Where it is stricter than
 * the schema (anything but a plain object), it only sends the value to the schema.
 */
import { z } from 'zod';
import { FIELD_LIMITS, hasNoControlCharacters, INN_PATTERN, isCalendarDate } from './contract.js';

type Plain = Record<string, unknown>;

const REQUEST_KEYS = new Set(['externalId', 'customer', 'contact', 'delivery', 'items', 'comment']);
const CUSTOMER_KEYS = new Set(['inn', 'name']);
const CONTACT_KEYS = new Set(['name', 'phone', 'email']);
const DELIVERY_KEYS = new Set(['city', 'address', 'desiredDate']);
const ITEM_KEYS = new Set(['lineId', 'name', 'quantity', 'unit', 'comment']);

/** A plain object (object literal or JSON) holding no key outside `keys`: a strict object's shape. */
function isStrictRecord(value: unknown, keys: ReadonlySet<string>): value is Plain {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key of Object.keys(value)) if (!keys.has(key)) return false;
  return true;
}

/** The schema's `text(max)`: a string without control characters, 1..max long once trimmed. */
function isText(value: unknown, max: number): value is string {
  if (typeof value !== 'string' || !hasNoControlCharacters(value)) return false;
  const trimmed = value.trim();
  return trimmed.length >= 1 && trimmed.length <= max;
}

/** The schema's `optionalText(max)` (no trim): absent, or at most max long without control characters. */
function isOptionalText(value: unknown, max: number): boolean {
  return value === undefined || (typeof value === 'string' && value.length <= max && hasNoControlCharacters(value));
}

/** The schema's `commentText(max)`: absent, or at most max long; tabs and line breaks allowed. */
function isComment(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && value.length <= FIELD_LIMITS.comment && hasNoControlCharacters(value, 'comment'));
}

function isEmail(value: unknown): boolean {
  return (
    value === undefined || (typeof value === 'string' && z.regexes.email.test(value) && value.length <= FIELD_LIMITS.shortText && hasNoControlCharacters(value))
  );
}

function isItem(value: unknown): value is Plain {
  return (
    isStrictRecord(value, ITEM_KEYS) &&
    isText(value.lineId, FIELD_LIMITS.shortText) &&
    isText(value.name, FIELD_LIMITS.name) &&
    typeof value.quantity === 'number' &&
    Number.isFinite(value.quantity) &&
    value.quantity > 0 &&
    isText(value.unit, FIELD_LIMITS.shortText) &&
    isComment(value.comment)
  );
}

/** True exactly when `createRequestSchema` accepts `value` (see the file's comment). */
export function isCreateRequest(value: unknown): boolean {
  if (!isStrictRecord(value, REQUEST_KEYS) || !isText(value.externalId, FIELD_LIMITS.externalId) || !isComment(value.comment)) return false;
  const { customer, contact, delivery, items } = value;
  if (
    !isStrictRecord(customer, CUSTOMER_KEYS) ||
    typeof customer.inn !== 'string' ||
    !INN_PATTERN.test(customer.inn) ||
    !isText(customer.name, FIELD_LIMITS.name)
  ) {
    return false;
  }
  if (
    !isStrictRecord(contact, CONTACT_KEYS) ||
    !isText(contact.name, FIELD_LIMITS.name) ||
    !isOptionalText(contact.phone, FIELD_LIMITS.shortText) ||
    !isEmail(contact.email)
  ) {
    return false;
  }
  // The schema's refinement: a phone or an e-mail (an empty one counts as none).
  if (!contact.phone && !contact.email) return false;
  if (
    !isStrictRecord(delivery, DELIVERY_KEYS) ||
    !isText(delivery.city, FIELD_LIMITS.shortText) ||
    !isText(delivery.address, FIELD_LIMITS.address) ||
    typeof delivery.desiredDate !== 'string' ||
    !isCalendarDate(delivery.desiredDate)
  ) {
    return false;
  }
  if (!Array.isArray(items) || items.length < 1 || items.length > FIELD_LIMITS.maxItems) return false;
  // The schema's refinement compares the lineIds as parsed, that is trimmed.
  const lineIds = new Set<string>();
  for (const item of items) {
    if (!isItem(item)) return false;
    const lineId = (item.lineId as string).trim();
    if (lineIds.has(lineId)) return false;
    lineIds.add(lineId);
  }
  return true;
}
