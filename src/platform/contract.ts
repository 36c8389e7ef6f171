/**
 * The platform contract: zod schemas of every resource in the interface document
 * (`shared/seeds/000_c7f32d61a580c6bf.txt`). The daemon validates what it sends and receives with
 * these, and the sandbox validates what it accepts with the same ones: this file is the single
 * definition of the contract.
 *
 * Where the document says "not shown" (required fields, lengths, allowed values) the decision is
 * ours and is listed in docs/assumptions.md (in one line each under the README's "Assumptions").
 *
 * Outbound inputs (the request, the confirmation) are strict: an unknown field is a mapping
 * mistake, not something to send. Inbound objects (results, orders, events) keep unknown fields,
 * because the platform may add fields the document does not show.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// identifiers and scalar shapes

/** Request id: a fixed prefix, then `REQ`, then a zero-padded number: `PRC-REQ-000123`. */
export const REQUEST_ID_PATTERN = /^[A-Z][A-Z0-9]*-REQ-\d{3,}$/;
/** Order id: a prefix, the year, a zero-padded number: `ORD-2026-000123`. */
export const ORDER_ID_PATTERN = /^[A-Z][A-Z0-9]*-\d{4}-\d{3,}$/;
/** Event id: `EVT-000123`. */
export const EVENT_ID_PATTERN = /^EVT-\d{3,}$/;
/** INN shape: 10 digits (an organisation) or 12 (a person); the check digits are checked elsewhere. */
export const INN_PATTERN = /^\d{10}(\d{2})?$/;
/** ISO 4217 shape: three capital letters. */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/** True when `value` is `YYYY-MM-DD` and names a real calendar day (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** True when a number has at most `places` decimal places (tolerant of binary float noise). */
export function hasAtMostDecimals(value: number, places: number): boolean {
  const scaled = value * 10 ** places;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

export const calendarDate = z.string().refine(isCalendarDate, { message: 'must be a real calendar date in the form YYYY-MM-DD' });

/** ISO 8601 timestamp with a UTC offset (`Z` or `+03:00`). */
export const timestamp = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp with a UTC offset' });

/**
 * Control characters (C0, DEL, C1) and the bidirectional overrides that can disguise a name
 * (U+202A–U+202E, U+2066–U+2069). Ids and names end up in file names, headers and the ERP's
 * tables, so none may hold them; comments may hold tabs and line breaks, and nothing else of these.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_BIDI_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** True when `value` holds no control character (comments: none but tab, CR and LF). */
export function hasNoControlCharacters(value: string, kind: 'name' | 'comment' = 'name'): boolean {
  return !(kind === 'comment' ? CONTROL_OR_BIDI_BUT_LINE_BREAKS : CONTROL_OR_BIDI).test(value);
}

/** `value` with each control character or bidirectional override (as above) replaced by `by`: for names the daemon makes from someone else's. */
export function replaceControlCharacters(value: string, by: string | ((character: string) => string) = '_'): string {
  return value.replace(new RegExp(CONTROL_OR_BIDI.source, 'g'), typeof by === 'string' ? () => by : by);
}

/** `value` with each control character or bidi override written as `\uXXXX`: to name it in a message without it acting. */
export function escapeControlCharacters(value: string): string {
  return replaceControlCharacters(value, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const NO_CONTROL = 'must not contain control characters';
const noControl = (value: string) => hasNoControlCharacters(value, 'name');
// The control check runs before the trim: trimmed first, a line break or tab at either end would pass
// the check and still be stored and sent (the trim only checks the value, the payload keeps it).
const text = (max: number) => z.string().refine(noControl, NO_CONTROL).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const optionalText = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine(noControl, NO_CONTROL).optional();
const commentText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => hasNoControlCharacters(value, 'comment'), 'must not contain control characters other than tab and line breaks')
    .optional();

export const FIELD_LIMITS = {
  externalId: 100,
  name: 500,
  shortText: 255,
  address: 1000,
  comment: 2000,
  maxItems: 1000,
} as const;

/** A lineId names one line: a second line with the same id is an issue at `items[i].lineId`. */
function rejectDuplicateLineIds(items: readonly { lineId: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.lineId)) ctx.addIssue({ code: 'custom', path: ['items', index, 'lineId'], message: `duplicate lineId "${item.lineId}"` });
    seen.add(item.lineId);
  });
}

// ---------------------------------------------------------------------------------------------
// create request

export const requestItemSchema = z.strictObject({
  lineId: text(FIELD_LIMITS.shortText),
  name: text(FIELD_LIMITS.name),
  quantity: z.number().finite().positive('must be greater than zero'),
  unit: text(FIELD_LIMITS.shortText),
  comment: commentText(FIELD_LIMITS.comment),
});

/** The Request object: the body of `POST …/requests`. */
export const createRequestSchema = z
  .strictObject({
    externalId: text(FIELD_LIMITS.externalId),
    customer: z.strictObject({
      inn: z.string().regex(INN_PATTERN, 'must be 10 or 12 digits'),
      name: text(FIELD_LIMITS.name),
    }),
    contact: z.strictObject({
      name: text(FIELD_LIMITS.name),
      phone: optionalText(FIELD_LIMITS.shortText),
      email: z.email('must be an e-mail address').max(FIELD_LIMITS.shortText).refine(noControl, NO_CONTROL).optional(),
    }),
    delivery: z.strictObject({
      city: text(FIELD_LIMITS.shortText),
      address: text(FIELD_LIMITS.address),
      // Optional (our choice, docs/assumptions.md): an order that names no date is sent without
      // one, never with a date made up from the order's own.
      desiredDate: calendarDate.optional(),
    }),
    items: z.array(requestItemSchema).min(1, 'must have at least one line').max(FIELD_LIMITS.maxItems),
    comment: commentText(FIELD_LIMITS.comment),
  })
  .superRefine((request, ctx) => {
    if (!request.contact.phone && !request.contact.email) {
      ctx.addIssue({ code: 'custom', path: ['contact', 'phone'], message: 'contact needs a phone or an e-mail' });
    }
    rejectDuplicateLineIds(request.items, ctx);
  });

export type CreateRequest = z.infer<typeof createRequestSchema>;
export type RequestItem = z.infer<typeof requestItemSchema>;

/** The creation result: the 201 body of `POST …/requests`. */
export const createRequestResultSchema = z.looseObject({
  id: z.string().regex(REQUEST_ID_PATTERN, 'must look like PRC-REQ-000123'),
  externalId: z.string().refine(noControl, NO_CONTROL),
  status: z.string().refine(noControl, NO_CONTROL),
  createdAt: timestamp,
});
export type CreateRequestResult = z.infer<typeof createRequestResultSchema>;

// ---------------------------------------------------------------------------------------------
// supplier confirmation

export const confirmationItemSchema = z.strictObject({
  lineId: text(FIELD_LIMITS.shortText),
  confirmedQuantity: z.number().finite().nonnegative('must not be negative'),
  price: z
    .number()
    .finite()
    .nonnegative('must not be negative')
    .refine((p) => hasAtMostDecimals(p, 2), { message: 'must have at most two decimal places' }),
  currency: z.string().regex(CURRENCY_PATTERN, 'must be a three-letter ISO 4217 code'),
});

/** The body of `POST …/supplier/orders/<order_id>/confirm`. */
export const confirmOrderSchema = z
  .strictObject({
    supplierOrderId: text(FIELD_LIMITS.externalId),
    readyToShipDate: calendarDate,
    items: z.array(confirmationItemSchema).min(1, 'must have at least one line').max(FIELD_LIMITS.maxItems),
    comment: commentText(FIELD_LIMITS.comment),
  })
  .superRefine((confirmation, ctx) => rejectDuplicateLineIds(confirmation.items, ctx));
export type ConfirmOrder = z.infer<typeof confirmOrderSchema>;
export type ConfirmationItem = z.infer<typeof confirmationItemSchema>;

/** The order as the confirm operation returns it. */
export const orderSchema = z.looseObject({
  id: z.string().regex(ORDER_ID_PATTERN, 'must look like ORD-2026-000123'),
  status: z.string().refine(noControl, NO_CONTROL),
  supplierOrderId: z.string().refine(noControl, NO_CONTROL),
  updatedAt: timestamp,
});
export type Order = z.infer<typeof orderSchema>;

// ---------------------------------------------------------------------------------------------
// webhook event

export const ORDER_STATUS_CHANGED = 'order.status.changed';

/**
 * A webhook event. `orderId` and `status` are required for `order.status.changed`; events of types
 * the document does not show are accepted with whatever fields they carry.
 */
export const webhookEventSchema = z
  .looseObject({
    eventId: z.string().regex(EVENT_ID_PATTERN, 'must look like EVT-000123'),
    eventType: z.string().min(1).max(FIELD_LIMITS.shortText).refine(noControl, NO_CONTROL),
    eventDate: timestamp,
    // The platform's values end up in export file names ({orderId}) and the ERP's tables.
    orderId: z.string().min(1).max(FIELD_LIMITS.shortText).refine(noControl, NO_CONTROL).optional(),
    status: z.string().min(1).max(FIELD_LIMITS.shortText).refine(noControl, NO_CONTROL).optional(),
  })
  .superRefine((event, ctx) => {
    if (event.eventType !== ORDER_STATUS_CHANGED) return;
    if (!event.orderId) ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'is required for order.status.changed' });
    if (!event.status) ctx.addIssue({ code: 'custom', path: ['status'], message: 'is required for order.status.changed' });
  });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

// ---------------------------------------------------------------------------------------------
// errors (RFC 9457 problem details: our decision, the document shows no error format)

export const problemDetailsSchema = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  errors: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
  /** On a 409 for a duplicate externalId: the id of the request that already holds it. */
  existingRequestId: z.string().optional(),
});
export type ProblemDetails = z.infer<typeof problemDetailsSchema>;

/** Problem types the sandbox uses and the daemon recognises (the `type` member of problem details). */
export const PROBLEM_TYPES = {
  validation: 'urn:problem:validation',
  malformedJson: 'urn:problem:malformed-json',
  unsupportedMediaType: 'urn:problem:unsupported-media-type',
  tooLarge: 'urn:problem:payload-too-large',
  unauthorized: 'urn:problem:unauthorized',
  forbidden: 'urn:problem:forbidden',
  notFound: 'urn:problem:not-found',
  idempotencyKeyMissing: 'urn:problem:idempotency-key-missing',
  idempotencyKeyReused: 'urn:problem:idempotency-key-reused',
  idempotencyInProgress: 'urn:problem:idempotency-in-progress',
  duplicateExternalId: 'urn:problem:duplicate-external-id',
  internal: 'urn:problem:internal',
  unavailable: 'urn:problem:unavailable',
  rateLimited: 'urn:problem:rate-limited',
} as const;

/** Turn zod issues into `{ path, message }` pairs with a JSON-path-like path (`$.items[0].lineId`). */
export function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): { path: string; message: string }[] {
  return issues.map((issue) => ({ path: toJsonPath(issue.path), message: issue.message }));
}

export function toJsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `.${String(part)}`;
  return out;
}

/** Dotted field name for reports (`items[0].lineId`), without the `$.` prefix. */
export function toFieldName(path: readonly PropertyKey[]): string {
  return toJsonPath(path).replace(/^\$\.?/, '');
}

// ---------------------------------------------------------------------------------------------
// paths

export const API_PREFIX = '/api-gateway/api/v1';

export function createRequestPath(token: string): string {
  return `${API_PREFIX}/${encodeURIComponent(token)}/requests`;
}

export function confirmOrderPath(token: string, orderId: string): string {
  return `${API_PREFIX}/${encodeURIComponent(token)}/supplier/orders/${encodeURIComponent(orderId)}/confirm`;
}
