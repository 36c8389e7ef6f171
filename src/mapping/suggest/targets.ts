/**
 * The target fields a suggestion fills, per kind, in the order the mapping lists them: what
 * content each expects (how a column is checked), at which level it lives (once per request, or
 * once per line), and whether the mapping needs it.
 */
import type { MappingKind } from '../../config/mapping-schema.js';

/** What a field's values look like, so that a column's content can confirm or contradict its name. */
export type Expectation = 'key' | 'inn' | 'text' | 'email' | 'phone' | 'date' | 'number' | 'lineId' | 'currency' | 'comment';

export interface TargetField {
  /** The key as the mapping writes it: `request.customer.inn`, `items.lineId`, `orderId`. */
  key: string;
  expect: Expectation;
  /** `record`: one value per request (CSV: the same on each of its rows); `line`: one per line. */
  level: 'record' | 'line';
  /** The mapping cannot load without it. */
  required: boolean;
  /** Written with `optional: true`: an empty value is left out instead of being a problem. */
  optional: boolean;
}

const record = (key: string, expect: Expectation, required = true, optional = false): TargetField => ({ key, expect, level: 'record', required, optional });
const line = (key: string, expect: Expectation, required = true, optional = false): TargetField => ({ key, expect, level: 'line', required, optional });

const REQUEST_TARGETS: readonly TargetField[] = [
  record('request.externalId', 'key'),
  record('request.customer.inn', 'inn'),
  record('request.customer.name', 'text'),
  record('request.contact.name', 'text'),
  // Each is optional; the contract needs one of the two (ONE_OF below).
  record('request.contact.phone', 'phone', false, true),
  record('request.contact.email', 'email', false, true),
  record('request.delivery.city', 'text'),
  record('request.delivery.address', 'text'),
  record('request.delivery.desiredDate', 'date'),
  record('request.comment', 'comment', false, true),
  line('items.lineId', 'lineId'),
  line('items.name', 'text'),
  line('items.quantity', 'number'),
  line('items.unit', 'text'),
  line('items.comment', 'comment', false, true),
];

const CONFIRMATION_TARGETS: readonly TargetField[] = [
  record('orderId', 'key'),
  record('confirmation.supplierOrderId', 'text'),
  record('confirmation.readyToShipDate', 'date'),
  record('confirmation.comment', 'comment', false, true),
  line('items.lineId', 'lineId'),
  line('items.confirmedQuantity', 'number'),
  line('items.price', 'number'),
  line('items.currency', 'currency'),
];

export function targetsOf(kind: MappingKind): readonly TargetField[] {
  return kind === 'requests' ? REQUEST_TARGETS : CONFIRMATION_TARGETS;
}

/** The key field of a kind: what groups rows and names each submission. */
export function keyTargetOf(kind: MappingKind): string {
  return kind === 'requests' ? 'request.externalId' : 'orderId';
}

/** Fields of which at least one must have a source (the contract needs a phone or an e-mail). */
export const ONE_OF: Partial<Record<MappingKind, readonly string[]>> = { requests: ['request.contact.phone', 'request.contact.email'] };
