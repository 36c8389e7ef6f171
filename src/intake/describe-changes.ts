/**
 * What changed between the request that was sent and a document's new version, in the terms an
 * operator checks on the platform: the dates, the address, the contact, the comment, and the lines
 * (added, removed, their quantities). Pure. Lines are matched by what they are (name and unit), not
 * by their lineId: a line inserted in 1C shifts the numbers of those after it, and their content
 * is what matters on the platform.
 */

/** One difference; `from`/`to` are null where the value is absent. */
export type PayloadChange =
  | { what: 'field'; field: string; from: string | null; to: string | null }
  | { what: 'line'; name: string; unit: string; from: number | null; to: number | null };

/** The request fields an operator compares, in the order they are listed. */
const FIELDS = [
  'delivery.desiredDate',
  'delivery.city',
  'delivery.address',
  'contact.name',
  'contact.phone',
  'contact.email',
  'customer.inn',
  'customer.name',
  'comment',
] as const;

/** Most changes listed in one notice; a document rewritten whole says so in its first ones. */
export const MAX_LISTED_CHANGES = 50;

interface Line {
  name: string;
  unit: string;
  quantity: number;
}

/** The differences between two request payloads (JSON text or objects); [] when none an operator would see. */
export function describeChanges(before: string | object, after: string | object): PayloadChange[] {
  const old = asObject(before);
  const next = asObject(after);
  const changes: PayloadChange[] = [];
  for (const field of FIELDS) {
    const from = textAt(old, field);
    const to = textAt(next, field);
    if (from !== to) changes.push({ what: 'field', field, from, to });
  }
  changes.push(...lineChanges(linesOf(old), linesOf(next)));
  return changes.slice(0, MAX_LISTED_CHANGES);
}

/** Lines paired by name and unit, in order; a quantity that differs, a line only on one side. */
function lineChanges(before: Line[], after: Line[]): PayloadChange[] {
  const key = (line: Line) => `${line.name}\u0000${line.unit}`;
  const remaining = new Map<string, Line[]>();
  for (const line of before) remaining.set(key(line), [...(remaining.get(key(line)) ?? []), line]);
  const changes: PayloadChange[] = [];
  for (const line of after) {
    const match = remaining.get(key(line))?.shift();
    if (match === undefined) changes.push({ what: 'line', name: line.name, unit: line.unit, from: null, to: line.quantity });
    else if (match.quantity !== line.quantity) changes.push({ what: 'line', name: line.name, unit: line.unit, from: match.quantity, to: line.quantity });
  }
  for (const lines of remaining.values())
    for (const line of lines) changes.push({ what: 'line', name: line.name, unit: line.unit, from: line.quantity, to: null });
  return changes;
}

function asObject(payload: string | object): Record<string, unknown> {
  if (typeof payload !== 'string') return payload as Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(payload);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function textAt(payload: Record<string, unknown>, path: string): string | null {
  let value: unknown = payload;
  for (const part of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

function linesOf(payload: Record<string, unknown>): Line[] {
  const items = Array.isArray(payload.items) ? (payload.items as unknown[]) : [];
  return items.map((item) => {
    const line = (item ?? {}) as Record<string, unknown>;
    return {
      name: typeof line.name === 'string' ? line.name : '',
      unit: typeof line.unit === 'string' ? line.unit : '',
      quantity: typeof line.quantity === 'number' ? line.quantity : Number.NaN,
    };
  });
}
