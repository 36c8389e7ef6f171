/**
 * The send of one claimed row: the platform call under the row's Idempotency-Key, the answer
 * classified and turned into the row's next state, and that outcome handed to the flow's
 * `OutcomeBatcher`. An attempt aborted by a stop puts its row back to pending at once.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryConfig } from '../config/delivery-schema.js';
import type { FlowConfig } from '../config/flow-schema.js';
import type { PlatformConfig } from '../config/platform-schema.js';
import type { Logger } from '../log.js';
import type { RandomSource } from '../platform/backoff.js';
import { classifyOutcome, type AttemptOutcome, type Classification } from '../platform/classify-failure.js';
import type { PlatformClient, RawOutcome } from '../platform/client.js';
import { requestKeyOf } from '../platform/idempotency-key.js';
import { ackChannel } from '../store/exports.js';
import type { Db } from '../store/open-store.js';
import { recordAttempt } from '../store/outbox.js';
import type { ClaimedSubmission } from '../store/submissions.js';
import type { Clock } from '../shared/types.js';
import { abandonedUpdate, buildAckRecord, decideTransition } from './decide-transition.js';
import type { AttemptSlot } from './flow-gate.js';
import type { GateKeeper } from './gate-keeper.js';
import type { BatchedOutcome, OutcomeBatcher } from './outcome-batcher.js';

/** An attempt's classified answer on its way to the store, with what reporting it and moving the gate need. */
export interface ClassifiedAttempt extends BatchedOutcome {
  classification: Classification;
  slot: AttemptSlot;
}

export interface RowSenderOptions {
  db: Db;
  /** The flow's name and its own token, if it has one. */
  flow: Pick<FlowConfig, 'name' | 'token'>;
  /** The platform's token (for flows without their own) and our `sourceSystem` (a request sent under another key than its own is a correction). */
  platform: Pick<PlatformConfig, 'token' | 'sourceSystem'>;
  delivery: Pick<DeliveryConfig, 'backoff'>;
  client: PlatformClient;
  clock: Clock;
  random: RandomSource;
  /** The flow's logger; each attempt logs on a child with its row and request. */
  log: Logger;
  /** Aborts the requests in flight (the end of a stop's grace). */
  signal: AbortSignal;
  gate: GateKeeper;
  outcomes: OutcomeBatcher<ClassifiedAttempt>;
}

/** Send one claimed row in its `slot`; `startedAt` is the tick's time, the one the rate limit decided by. Never rejects. */
export type SendRow = (row: ClaimedSubmission, slot: AttemptSlot, startedAt: number) => Promise<void>;

export function createRowSender(options: RowSenderOptions): SendRow {
  const { client, clock, gate, outcomes } = options;
  const flowName = options.flow.name;
  const token = options.flow.token ?? options.platform.token;
  const { sourceSystem } = options.platform;
  const { backoff } = options.delivery;

  function request(row: ClaimedSubmission, requestId: string): Promise<RawOutcome> {
    const call = { idempotencyKey: row.idempotencyKey, requestId, signal: options.signal };
    return row.kind === 'confirmation'
      ? client.confirmOrder(token, row.orderId ?? row.externalId, row.payload, call)
      : client.createRequest(token, row.payload, call);
  }

  function outcomeOf(
    row: ClaimedSubmission,
    classification: Classification,
    slot: AttemptSlot,
    requestId: string,
    startedAt: number,
    now: number,
    log: Logger,
  ): ClassifiedAttempt {
    const transition = decideTransition(row, classification, { backoff, startedAt, now, random: options.random });
    const { finalState } = transition;
    return {
      submissionId: row.id,
      attempt: {
        requestId,
        startedAt,
        finishedAt: now,
        httpStatus: classification.httpStatus,
        outcome: transition.attemptOutcome,
        error: classification.code ? classification.reason : null,
        // Each attempt keeps the platform's own answer (scrubbed by the classification), so the console's timeline shows every problem.
        result: classification.result ? JSON.stringify(classification.result) : null,
      },
      update: transition.update,
      ack: finalState
        ? {
            channel: ackChannel(flowName),
            sourceKey: `${row.id}:${finalState}:${requestId}`,
            record: buildAckRecord(flowName, row, classification, transition),
            now,
          }
        : undefined,
      classification,
      slot,
      log,
    };
  }

  return async function sendRow(row, slot, startedAt) {
    const requestId = randomUUID();
    const log = options.log.child({ externalId: row.externalId, requestId, submissionId: row.id });
    let answer: AttemptOutcome;
    try {
      const raw = await request(row, requestId);
      answer = { kind: 'response', status: raw.status, headers: raw.headers, body: raw.body };
    } catch (error) {
      if (options.signal.aborted) {
        abandon(options.db, row, requestId, startedAt, clock(), log);
        gate.hearNothing(slot);
        return;
      }
      answer = { kind: 'error', error };
    }
    const now = clock();
    const classification = classify(row, answer, now, sourceSystem, log);
    if (!classification) return gate.hearNothing(slot);
    const outcome = outcomeOf(row, classification, slot, requestId, startedAt, now, log);
    // An acceptance while the circuit is closed frees its slot at the end of this turn and waits
    // for its group. Any other answer may move the gate (a failure, a refused token, a probe's
    // verdict): it holds its slot until it is recorded.
    if (slot === 'regular' && gate.state().mode === 'closed' && classification.outcome === 'accepted') await outcomes.add(outcome);
    else await outcomes.addAndWait(outcome);
  };
}

/** The answer's classification; null when classifying it failed (logged: the lease hands the row back). */
function classify(row: ClaimedSubmission, answer: AttemptOutcome, now: number, sourceSystem: string, log: Logger): Classification | null {
  try {
    // A request sent under another key than its original one is a correction (`platform/idempotency-key.ts`).
    const correction = row.kind === 'request' && row.idempotencyKey !== requestKeyOf(sourceSystem, row.externalId);
    return classifyOutcome({ kind: row.kind, correction, earlierAttempts: row.attempts }, answer, now);
  } catch (error) {
    log.error({ err: error }, 'Could not classify the outcome of a delivery attempt; the lease hands the row back');
    return null;
  }
}

/** A stop aborted the request: the row is pending again, due now, with its key and nothing counted. */
function abandon(db: Db, row: ClaimedSubmission, requestId: string, startedAt: number, now: number, log: Logger): void {
  try {
    const attempt = { requestId, startedAt, finishedAt: now, httpStatus: null, outcome: 'aborted', error: 'Aborted by shutdown' };
    recordAttempt(db, row.id, attempt, abandonedUpdate(row, now));
    log.info('Attempt aborted by shutdown; the row is pending again with the same Idempotency-Key');
  } catch (error) {
    log.error({ err: error }, 'Could not return an aborted row to pending; its lease will');
  }
}
