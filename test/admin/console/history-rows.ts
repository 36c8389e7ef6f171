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
import { validRequest } from '../../helpers/fixtures.js';
import { addRequestRow } from '../../helpers/store.js';

export type AttemptOutcome = 'accepted' | 'retry' | 'rejected' | 'held' | 'dead' | 'paused' | 'aborted';

type FinalOutcome = Extract<AttemptOutcome, 'accepted' | 'rejected' | 'held' | 'dead'>;
const isFinal = (outcome: AttemptOutcome): outcome is FinalOutcome => ['accepted', 'rejected', 'held', 'dead'].includes(outcome);
const STATUS: Record<AttemptOutcome, number | null> = { accepted: 201, retry: 503, rejected: 422, held: 409, dead: 503, paused: 401, aborted: null };

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
    const final = isFinal(outcome);
    const written = recordAttempt(
      db,
      id,
      {
        requestId: `${externalId}-${i + 1}`,
        startedAt: at - 50,
        finishedAt: at,
        httpStatus: STATUS[outcome],
        outcome,
        error: final && outcome === 'accepted' ? null : outcome,
      },
      {
        state: isFinal(outcome) ? outcome : 'pending',
        attempts: i + 1,
        nextAttemptAt: at,
        firstAttemptAt: attempts[0]!.at - 50,
        lastAttemptAt: at - 50,
        lastStatus: STATUS[outcome],
        lastErrorCode: outcome === 'accepted' ? null : 'PLATFORM_UNAVAILABLE',
        lastError: outcome === 'accepted' ? null : outcome,
        result: null,
        platformId: outcome === 'accepted' ? `PRC-${externalId}` : null,
        finishedAt: final ? at : null,
        now: at,
      },
    );
    if (!written) throw new Error(`deliverAt ${externalId}: attempt ${i + 1} was not recorded`);
  });
  return id;
}

/** The webhook stage's rule: a later eventDate replaces the order's status. */
const newerWins = (event: { eventDateMs: number }, current: { event_date_ms: number }) => event.eventDateMs > current.event_date_ms;

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
