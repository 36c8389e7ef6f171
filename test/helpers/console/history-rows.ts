/**
 * History at chosen times, written by the store's own functions: a request recorded as intake
 * records it, then each attempt claimed and recorded as delivery does (`claimDueSubmissions`,
 * `recordAttempt`); webhook events stored as the listener stores them (`recordEvents`). The charts'
 * tests and the screenshots' day of traffic are built from these, so that they count what the
 * stages really write.
 */
import { claimDueSubmissions, recordAttempt } from '../../../src/store/outbox.js';
import { recordEvents } from '../../../src/store/events.js';
import type { Db } from '../../../src/store/open-store.js';
import { validRequest } from '../fixtures.js';
import { addRequestRow } from '../store.js';

export type AttemptOutcome = 'accepted' | 'retry' | 'rejected' | 'held' | 'dead' | 'paused' | 'aborted';

type FinalOutcome = Extract<AttemptOutcome, 'accepted' | 'rejected' | 'held' | 'dead'>;
const isFinal = (outcome: AttemptOutcome): outcome is FinalOutcome => ['accepted', 'rejected', 'held', 'dead'].includes(outcome);
const STATUS: Record<AttemptOutcome, number | null> = { accepted: 201, retry: 503, rejected: 422, held: 409, dead: 503, paused: 401, aborted: null };
/** The error each outcome leaves on the row, as delivery words it. */
const ERROR: Record<AttemptOutcome, { code: string; message: string } | null> = {
  accepted: null,
  retry: { code: 'PLATFORM_UNAVAILABLE', message: 'The platform failed temporarily (503): Try later.' },
  rejected: { code: 'PLATFORM_REJECTED', message: 'The platform rejected the submission (422): customer.inn fails the INN check digit' },
  held: { code: 'PLATFORM_CONFLICT', message: 'The platform answered 409 Conflict: externalId already used' },
  dead: { code: 'SUBMISSION_DEAD', message: 'Gave up after 2 attempt(s), the limit of 2 attempts: The platform failed temporarily (503): Try later.' },
  paused: { code: 'PLATFORM_UNAUTHORIZED', message: 'The platform refused the token (401): invalid token' },
  aborted: null,
};

/**
 * Record request `externalId` of `flow` (at `createdAt`, default a second before its first attempt)
 * and finish each attempt at its `at` with its outcome, in order. The flow must have no other
 * pending row due by then: each attempt claims the one due row and checks it is this one.
 * Returns the row's id.
 */
export function deliverAt(
  db: Db,
  flow: string,
  externalId: string,
  attempts: readonly { at: number; outcome: AttemptOutcome }[],
  createdAt = (attempts[0]?.at ?? Date.now()) - 1_000,
): number {
  const id = addRequestRow(db, flow, validRequest(externalId), externalId, createdAt);
  attempts.forEach(({ at, outcome }, i) => {
    const [claimed, ...others] = claimDueSubmissions(db, { flow, now: at - 50, leaseMs: 60_000, limit: 2 });
    if (claimed?.id !== id || others.length > 0) throw new Error(`deliverAt ${externalId}: another row of ${flow} was due; record rows one after another`);
    const written = recordAttempt(
      db,
      id,
      {
        requestId: `${externalId}-${i + 1}`,
        startedAt: at - 50,
        finishedAt: at,
        httpStatus: STATUS[outcome],
        outcome,
        error: ERROR[outcome]?.message ?? null,
      },
      {
        state: isFinal(outcome) ? outcome : 'pending',
        attempts: i + 1,
        nextAttemptAt: at,
        firstAttemptAt: attempts[0]!.at - 50,
        lastAttemptAt: at - 50,
        lastStatus: STATUS[outcome],
        lastErrorCode: ERROR[outcome]?.code ?? null,
        lastError: ERROR[outcome]?.message ?? null,
        result: null,
        platformId: outcome === 'accepted' ? `PRC-${externalId}` : null,
        finishedAt: isFinal(outcome) ? at : null,
        now: at,
      },
    );
    if (!written) throw new Error(`deliverAt ${externalId}: attempt ${i + 1} was not recorded`);
  });
  return id;
}

/** The webhook stage's rule: a later eventDate replaces the order's status. */
const newerWins = (event: { eventDateMs: number }, current: { eventDateMs: number }) => event.eventDateMs > current.eventDateMs;

/**
 * Store a status event for `orderId` received at `at`, dated `eventDateMs` (default `at`): it is
 * applied when it is newer than the order's applied status, stored only when older. Returns the
 * outcome the store gave (a repeated `eventId` is a duplicate and stores nothing).
 */
export function receiveEventAt(db: Db, eventId: string, orderId: string, at: number, eventDateMs = at): string {
  const eventDate = new Date(eventDateMs).toISOString();
  const [result] = recordEvents(
    db,
    [
      {
        eventId,
        eventType: 'order.status.changed',
        eventDate,
        eventDateMs,
        orderId,
        status: 'confirmed',
        body: JSON.stringify({ eventId, eventType: 'order.status.changed', eventDate, orderId, status: 'confirmed' }),
        statusChange: { orderId, status: 'confirmed', exportRecord: { orderId, status: 'confirmed' } },
      },
    ],
    at,
    newerWins,
  );
  if (!result?.ok) throw new Error(`receiveEventAt ${eventId}: not stored`);
  return result.outcome;
}

/** What `recordBusyDay` recorded: per chart series, its total (a request once per outcome and hour). */
export interface BusyDay {
  accepted: number;
  retry: number;
  held: number;
  rejected: number;
  dead: number;
  applied: number;
  storedOnly: number;
}

/**
 * A working day of one flow ending at `now`, as the screenshots show it: requests mostly in office
 * hours (local), most accepted at once, some after a retry, a few rejected or held, and an hour
 * the platform was down (retries, two dead letters); webhook events for a share of them, a few
 * older than the order's status. The same every time for the same hours (a fixed pseudo-random
 * sequence). The oldest hour of the window is left empty, so that the day still fits if the hour
 * turns before the page is read. Returns the totals the charts should show.
 */
export function recordBusyDay(db: Db, flow: string, now: number): BusyDay {
  const day: BusyDay = { accepted: 0, retry: 0, held: 0, rejected: 0, dead: 0, applied: 0, storedOnly: 0 };
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const hour = 3_600_000;
  const current = new Date(now);
  current.setMinutes(0, 0, 0);
  // Four hours ago the platform was down for an hour, whatever the time of day.
  const outageHour = current.getTime() - 4 * hour;
  let n = 0;
  for (let start = current.getTime() - 22 * hour; start <= current.getTime(); start += hour) {
    const end = Math.min(start + hour, now - 120_000);
    if (end - start < 600_000) continue;
    const localHour = new Date(start).getHours();
    const perHour =
      localHour >= 9 && localHour < 18
        ? 14 + Math.floor(random() * 16)
        : localHour >= 7 && localHour < 21
          ? 3 + Math.floor(random() * 4)
          : Math.floor(random() * 2);
    for (let k = 0; k < perHour; k += 1) {
      const at = Math.floor(start + ((k + 0.5) / perHour) * (end - start) * 0.9);
      const externalId = `ЗК-05${String((n += 1)).padStart(4, '0')}`;
      const roll = random();
      if (start === outageHour) {
        const dead = k < 2;
        deliverAt(db, flow, externalId, [
          { at, outcome: 'retry' },
          { at: at + 60_000, outcome: dead ? 'dead' : 'retry' },
          ...(dead ? [] : [{ at: start + hour + 60_000 * (k + 1), outcome: 'accepted' as const }]),
        ]);
        day.retry += 1;
        day[dead ? 'dead' : 'accepted'] += 1;
        continue;
      }
      const outcome: AttemptOutcome = roll < 0.015 ? 'held' : roll < 0.05 ? 'rejected' : 'accepted';
      const retried = outcome === 'accepted' && roll > 0.93 && at + 90_000 < end;
      deliverAt(
        db,
        flow,
        externalId,
        retried
          ? [
              { at, outcome: 'retry' },
              { at: at + 90_000, outcome },
            ]
          : [{ at, outcome }],
      );
      day[outcome] += 1;
      if (retried) day.retry += 1;
      if (random() < 0.5) {
        const stale = random() < 0.12;
        receiveEventAt(db, `EVT-D${n}`, `ORD-D${n}`, at + 30_000);
        day.applied += 1;
        if (stale) {
          receiveEventAt(db, `EVT-D${n}-old`, `ORD-D${n}`, at + 40_000, at);
          day.storedOnly += 1;
        }
      }
    }
  }
  return day;
}
