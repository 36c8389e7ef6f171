/**
 * `isCreateRequest(value)`: true only when `createRequestSchema.safeParse(value).success` would be,
 * without zod's work. Intake asks it first and runs the schema only for a request it refuses, for
 * the schema's issues (its messages stay the one source of what a user reads).
 *
 * Why a second shape of the schema: zod 4's parse of a request (each string goes through its check
 * pipeline and the trim makes a copy) was a sizeable share of intake's time for a large file, and
 * this walk is several times cheaper (docs/performance.md, Intake). It reads the schema's own
 * constants (limits, patterns, zod's e-mail pattern and its way of counting a string's length, the
 * control-character rule), reads every field once, as zod does, and
 * `test/platform/create-request-check.test.ts` holds it to the schema on thousands of valid and
 * broken requests, so a change to one that the other misses fails there. It is stricter than the
 * schema in one place only: anything but a plain object is sent to the schema, which then decides.
 */
import { z } from 'zod';
import { util } from 'zod/v4/core';
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
  // `for…in`, as zod's strict object looks for unknown keys (inherited enumerable ones count too).
  for (const key in value) if (!keys.has(key)) return false;
  return true;
}

/** At most `max` long as zod counts a string (code points once it is longer in UTF-16 units). */
function fits(value: string, max: number): boolean {
  return value.length <= max || util.codePointLength(value) <= max;
}

/** The schema's `text(max)`: a string without control characters, 1..max long once trimmed. */
function isText(value: unknown, max: number): value is string {
  if (typeof value !== 'string' || !hasNoControlCharacters(value)) return false;
  const trimmed = value.trim();
  return trimmed.length >= 1 && fits(trimmed, max);
}

/** The schema's `optionalText(max)` (no trim): absent, or at most max long without control characters. */
function isOptionalText(value: unknown, max: number): boolean {
  return value === undefined || (typeof value === 'string' && fits(value, max) && hasNoControlCharacters(value));
}

/** The schema's `commentText(max)`: absent, or at most max long; tabs and line breaks allowed. */
function isComment(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && fits(value, FIELD_LIMITS.comment) && hasNoControlCharacters(value, 'comment'));
}

function isEmail(value: unknown): boolean {
  return (
    value === undefined || (typeof value === 'string' && z.regexes.email.test(value) && fits(value, FIELD_LIMITS.shortText) && hasNoControlCharacters(value))
  );
}

/** A line's trimmed lineId when the line is valid (the duplicate rule compares those), else null. */
function validLineId(value: unknown): string | null {
  if (!isStrictRecord(value, ITEM_KEYS)) return null;
  const { lineId, name, quantity, unit, comment } = value;
  const valid =
    isText(lineId, FIELD_LIMITS.shortText) &&
    isText(name, FIELD_LIMITS.name) &&
    typeof quantity === 'number' &&
    Number.isFinite(quantity) &&
    quantity > 0 &&
    isText(unit, FIELD_LIMITS.shortText) &&
    isComment(comment);
  return valid ? lineId.trim() : null;
}

/** True only when `createRequestSchema` accepts `value` (see the file's comment). */
export function isCreateRequest(value: unknown): boolean {
  if (!isStrictRecord(value, REQUEST_KEYS)) return false;
  const { externalId, customer, contact, delivery, items, comment } = value;
  if (!isText(externalId, FIELD_LIMITS.externalId) || !isComment(comment)) return false;
  if (!isStrictRecord(customer, CUSTOMER_KEYS)) return false;
  const { inn, name: customerName } = customer;
  if (typeof inn !== 'string' || !INN_PATTERN.test(inn) || !isText(customerName, FIELD_LIMITS.name)) return false;
  if (!isStrictRecord(contact, CONTACT_KEYS)) return false;
  const { name: contactName, phone, email } = contact;
  if (!isText(contactName, FIELD_LIMITS.name) || !isOptionalText(phone, FIELD_LIMITS.shortText) || !isEmail(email)) return false;
  // The schema's refinement: a phone or an e-mail (an empty one counts as none).
  if (!phone && !email) return false;
  if (!isStrictRecord(delivery, DELIVERY_KEYS)) return false;
  const { city, address, desiredDate } = delivery;
  if (
    !isText(city, FIELD_LIMITS.shortText) ||
    !isText(address, FIELD_LIMITS.address) ||
    (desiredDate !== undefined && (typeof desiredDate !== 'string' || !isCalendarDate(desiredDate)))
  ) {
    return false;
  }
  if (!Array.isArray(items) || items.length < 1 || items.length > FIELD_LIMITS.maxItems) return false;
  // By index, as zod reads an array; the refinement compares the lineIds as parsed, that is trimmed.
  const lineIds = new Set<string>();
  for (let index = 0; index < items.length; index++) {
    const lineId = validLineId(items[index]);
    if (lineId === null || lineIds.has(lineId)) return false;
    lineIds.add(lineId);
  }
  return true;
}
