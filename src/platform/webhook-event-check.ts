/**
 * `quickWebhookEvent(value)`: the event when `webhookEventSchema.safeParse(value)` would succeed,
 * else undefined, without zod's work. The listener asks it first and runs the schema only for a
 * body it refuses, for the schema's issues (the one source of what the 400 says), as intake does
 * with `isCreateRequest`.
 *
 * Why a second shape of the schema: zod's parse of an event (its check pipeline per string, the
 * copy of the object) was a visible share of the listener's busy time, on the hot path of every
 * webhook (docs/performance.md, Webhooks). This reads each field once, with the schema's own
 * constants (its id pattern, its timestamp pattern taken from the schema itself, its limits and
 * control-character rule), and `test/platform/webhook-event-check.test.ts` holds it to the schema
 * on thousands of valid and broken events. Like the schema (a loose object), it keeps unknown keys;
 * unlike it, it returns the value given rather than a copy, which nothing here writes to.
 */
import { util } from 'zod/v4/core';
import { EVENT_ID_PATTERN, FIELD_LIMITS, hasNoControlCharacters, ORDER_STATUS_CHANGED, timestamp, type WebhookEvent } from './contract.js';

/** The schema's own timestamp pattern (ISO 8601 with an offset), so that the two cannot disagree on it. */
const TIMESTAMP = timestamp._zod.def.pattern!;

/** 1..max long as zod counts a string (code points once it is longer in UTF-16 units), no control characters. */
function isName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= 1 &&
    (value.length <= FIELD_LIMITS.shortText || util.codePointLength(value) <= FIELD_LIMITS.shortText) &&
    hasNoControlCharacters(value)
  );
}

/** The event, when the schema accepts `value` (see the file's comment); undefined otherwise. */
export function quickWebhookEvent(value: unknown): WebhookEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const { eventId, eventType, eventDate, orderId, status } = value as Record<string, unknown>;
  if (typeof eventId !== 'string' || !EVENT_ID_PATTERN.test(eventId)) return undefined;
  if (!isName(eventType)) return undefined;
  if (typeof eventDate !== 'string' || !TIMESTAMP.test(eventDate)) return undefined;
  if (orderId !== undefined && !isName(orderId)) return undefined;
  if (status !== undefined && !isName(status)) return undefined;
  if (eventType === ORDER_STATUS_CHANGED && (!orderId || !status)) return undefined;
  return value as WebhookEvent;
}
