/**
 * The ONE place that decides what an answer of the platform means for a submission: accepted,
 * retried, rejected for good, held for a person, or the whole flow paused.
 *
 * Why we retry a POST at all: ky and undici refuse to retry POST by default, because repeating a
 * non-idempotent call can create a second resource. We retry POST only because every submission
 * carries a stable `Idempotency-Key` (identical on every attempt, across crashes and restarts), so
 * the platform answers a repeat with the first answer instead of creating a duplicate. Without that
 * key, none of the "retry" outcomes below would be safe.
 *
 * Pure: the HTTP outcome (or the network error), the headers and `now` come in as values.
 */
import type { ErrorCode } from '../errors.js';
import { describeError } from '../errors.js';
import { mayCarrySecret, scrubDeep } from '../log.js';
import {
  PROBLEM_TYPES,
  REQUEST_ID_PATTERN,
  createRequestResultSchema,
  issuesToFieldErrors,
  orderSchema,
  problemDetailsSchema,
  type ProblemDetails,
} from './contract.js';
import { parseRetryAfter } from './retry-after.js';

export const DELIVERY_OUTCOME = {
  accepted: 'accepted',
  retry: 'retry',
  rejected: 'rejected',
  held: 'held',
  paused: 'paused',
} as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOME)[keyof typeof DELIVERY_OUTCOME];

export type SubmissionKindName = 'request' | 'confirmation';

export type HttpHeaders = Record<string, string | string[] | undefined>;

/** What the client hands back: the raw answer, or the error that prevented one. */
export type AttemptOutcome = { kind: 'response'; status: number; headers: HttpHeaders; body: string } | { kind: 'error'; error: unknown };

export interface Classification {
  outcome: DeliveryOutcome;
  /** Error code for anything but a plain acceptance. */
  code: ErrorCode | null;
  /** One line for people: what happened. */
  reason: string;
  /** Retry-After the platform asked for, in ms (uncapped; the cap is applied when scheduling). */
  retryAfterMs?: number;
  /** The request id (REQ) or the order id the platform gave. */
  platformId?: string;
  /** What we keep on the row: the validated answer, or the problem details. */
  result?: Record<string, unknown>;
  /** The platform's status word of an accepted submission (`accepted`, `confirmed`). */
  platformStatus?: string;
  /** The platform's own words: problem detail and each `errors[]` entry (`path: message`), joined with "; ". */
  details: string;
  /** True when the failure says the platform is unwell (feeds the circuit breaker). */
  countsAsPlatformFailure: boolean;
  httpStatus: number | null;
}

const RETRY_STATUSES = new Set([408, 429]);

/**
 * What classification needs of the submission: its kind (which picks the success schema, a
 * request result or an order) and whether it is a correction (sent under a new key, after an
 * earlier version of the same externalId was rejected or dead).
 */
export interface SubmissionToClassify {
  kind: SubmissionKindName;
  correction: boolean;
  /** Attempts made before this one under the submission's current key (a correction starts again at 0). */
  earlierAttempts: number;
}

/**
 * Classify one attempt of `submission`.
 *
 * The platform's error bodies are not ours: a platform that echoes the request path in one
 * (`No route for POST /api-gateway/api/v1/<token>/requests`) would carry the token into the row,
 * the acknowledgement file and `status`. So what a failure keeps (its words and problem details)
 * is scrubbed of every registered secret and URL token segment here, where the answer enters. An
 * accepted answer, and the ids the platform names, are data: never rewritten, whatever a short
 * secret reads like (`0001` in `PRC-REQ-000001`).
 */
export function classifyOutcome(submission: SubmissionToClassify, attempt: AttemptOutcome, now: number): Classification {
  const classification = classifyUnscrubbed(submission, attempt, now);
  if (classification.outcome === DELIVERY_OUTCOME.accepted) return classification;
  const { platformId, platformStatus, ...words } = classification;
  // Almost every answer carries nothing to scrub: one test of its JSON text instead of a copy of every string in it.
  const scrubbed = mayCarrySecret(words) ? scrubDeep(words) : words;
  return { ...scrubbed, ...(platformId === undefined ? {} : { platformId }), ...(platformStatus === undefined ? {} : { platformStatus }) };
}

function classifyUnscrubbed(submission: SubmissionToClassify, attempt: AttemptOutcome, now: number): Classification {
  if (attempt.kind === 'error') return classifyNoAnswer(attempt.error);
  const { status, headers, body } = attempt;
  const json = parseJson(body);
  if (status >= 200 && status < 300) return classifySuccess(submission.kind, status, headers, json);
  const problem = readProblem(json, status);
  const failure: FailureAnswer = { status, headers, problem, detail: describeProblem(problem, status) };
  if (status === 409) return classifyConflict(submission, failure, now);
  return classifyFailureStatus(failure, now);
}

/** A non-2xx answer, read: its problem details and the line they make. */
interface FailureAnswer {
  status: number;
  headers: HttpHeaders;
  problem: ProblemDetails;
  /** `describeProblem` of it. */
  detail: string;
}

/** What every classification of a non-2xx answer keeps. */
function keptOf({ status, problem, detail }: FailureAnswer): Pick<Classification, 'httpStatus' | 'result' | 'details'> {
  return { httpStatus: status, result: problem as Record<string, unknown>, details: detail };
}

function classifyNoAnswer(error: unknown): Classification {
  const message = describeNetworkError(error);
  return {
    details: message,
    outcome: 'retry',
    code: 'PLATFORM_UNAVAILABLE',
    reason: `No answer from the platform: ${message}`,
    countsAsPlatformFailure: true,
    httpStatus: null,
  };
}

function classifyConflict(submission: SubmissionToClassify, failure: FailureAnswer, now: number): Classification {
  const { problem, detail } = failure;
  if (problem.type === PROBLEM_TYPES.idempotencyInProgress) {
    return {
      ...keptOf(failure),
      outcome: 'retry',
      code: 'PLATFORM_UNAVAILABLE',
      reason: `The platform is still processing the first request with this Idempotency-Key (409): ${detail}`,
      retryAfterMs: parseRetryAfter(failure.headers['retry-after'], now),
      // The platform is alive and working on it: not a sign of an outage.
      countsAsPlatformFailure: false,
    };
  }
  if (problem.type === PROBLEM_TYPES.duplicateExternalId && problem.existingRequestId !== undefined) {
    return classifyDuplicateExternalId(submission, failure, problem.existingRequestId);
  }
  return {
    ...keptOf(failure),
    outcome: 'held',
    code: 'PLATFORM_CONFLICT',
    reason: `The platform answered 409 Conflict: ${detail}`,
    countsAsPlatformFailure: false,
  };
}

/** A 409 naming the request that already holds the externalId: delivered, or held for a person. */
function classifyDuplicateExternalId(submission: SubmissionToClassify, failure: FailureAnswer, existing: string): Classification {
  const held = (why: string): Classification => ({
    ...keptOf(failure),
    outcome: 'held',
    code: 'PLATFORM_CONFLICT',
    reason: why,
    countsAsPlatformFailure: false,
  });
  // The id goes into the row, the acknowledgement and the log: only a request id the contract
  // knows is taken, never whatever text an answer carries.
  if (!REQUEST_ID_PATTERN.test(existing)) {
    return held(`The platform answered 409 duplicate externalId naming ${JSON.stringify(existing.slice(0, 100))}, which is not a request id`);
  }
  if (submission.kind !== 'request') return held(`The platform answered a confirmation with 409 duplicate externalId (${existing})`);
  if (submission.correction) {
    // A correction travels under a new key. On its first attempt the request the platform
    // holds was created from an earlier version (an attempt that reached it although it was
    // never answered): it holds the old content, and calling the correction delivered would
    // hide that. After an unanswered attempt of the correction itself, it may be either (the
    // platform forgets keys after a day): a person must look, in both cases.
    return held(
      submission.earlierAttempts === 0
        ? `The platform already holds this externalId as ${existing} (409), created from an earlier version: the correction was not applied; change the request on the platform or cancel it there`
        : `The platform already holds this externalId as ${existing} (409); an earlier attempt of this correction got no answer, so it may hold the correction or the earlier version: check ${existing} on the platform`,
    );
  }
  // The externalId is held by a request the platform names, and this row was never changed:
  // an earlier attempt (or an earlier key of the same content) created it, so it is delivered.
  return {
    ...keptOf(failure),
    outcome: 'accepted',
    code: null,
    reason: `The platform already holds this externalId as ${existing} (409)`,
    platformId: existing,
    platformStatus: 'accepted',
    countsAsPlatformFailure: false,
  };
}

/** Any failure status but 409: the token refused, an outage, or a verdict on the submission. */
function classifyFailureStatus(failure: FailureAnswer, now: number): Classification {
  const { status, detail } = failure;
  if (status === 401 || status === 403) {
    return {
      ...keptOf(failure),
      outcome: 'paused',
      code: 'PLATFORM_UNAUTHORIZED',
      reason: `The platform refused the token (${status}): ${detail}`,
      countsAsPlatformFailure: false,
    };
  }

  if (RETRY_STATUSES.has(status) || status >= 500) {
    return {
      ...keptOf(failure),
      outcome: 'retry',
      code: 'PLATFORM_UNAVAILABLE',
      reason: `The platform failed temporarily (${status}): ${detail}`,
      retryAfterMs: parseRetryAfter(failure.headers['retry-after'], now),
      countsAsPlatformFailure: true,
    };
  }

  if (status >= 400 && status < 500) {
    // Any other 4xx is a statement about this submission, not about the platform's health:
    // repeating the same body under the same key cannot change the answer.
    return {
      ...keptOf(failure),
      outcome: 'rejected',
      code: 'PLATFORM_REJECTED',
      reason: `The platform rejected the submission (${status}): ${detail}`,
      countsAsPlatformFailure: false,
    };
  }

  // 1xx/3xx never reach us (undici follows no redirects here): treat as an outage, not a verdict.
  return {
    ...keptOf(failure),
    outcome: 'retry',
    code: 'PLATFORM_UNAVAILABLE',
    reason: `Unexpected HTTP status ${status} from the platform`,
    countsAsPlatformFailure: true,
  };
}

function classifySuccess(kind: SubmissionKindName, status: number, headers: HttpHeaders, json: unknown): Classification {
  const replayed = headerValue(headers['idempotent-replayed']) === 'true';
  const schema = kind === 'request' ? createRequestResultSchema : orderSchema;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // A 2xx whose body breaks the contract: the platform probably did the work, so retrying is
    // pointless (the same key replays the same body) and rejecting would be a lie. Held, with
    // the raw body kept, for a person to look at.
    const problems = issuesToFieldErrors(parsed.error.issues).map((e) => `${e.path}: ${e.message}`);
    return {
      outcome: 'held',
      code: 'PLATFORM_RESPONSE_INVALID',
      reason: `The platform answered ${status} but its body breaks the contract: ${problems.join('; ') || 'not JSON'}`,
      result: { httpStatus: status, body: json ?? null },
      details: problems.join('; '),
      countsAsPlatformFailure: false,
      httpStatus: status,
    };
  }
  const data = parsed.data as Record<string, unknown> & { id: string; status: string };
  const kept: Record<string, unknown> = { id: data.id, status: data.status };
  for (const field of ['externalId', 'createdAt', 'supplierOrderId', 'updatedAt']) {
    if (data[field] !== undefined) kept[field] = data[field];
  }
  if (replayed) kept.replayed = true;
  return {
    outcome: 'accepted',
    code: null,
    reason: `Accepted by the platform as ${data.id} (${status}${replayed ? ', replayed' : ''})`,
    platformId: data.id,
    platformStatus: data.status,
    result: kept,
    details: '',
    countsAsPlatformFailure: false,
    httpStatus: status,
  };
}

function parseJson(body: string): unknown {
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** Problem details from the body, or a minimal one when the body is not problem JSON. */
function readProblem(json: unknown, status: number): ProblemDetails {
  const parsed = problemDetailsSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return { status, detail: typeof json === 'string' ? json : undefined };
}

/** "detail; $.path: message; …", the reasons line of acknowledgements and logs. */
export function describeProblem(problem: ProblemDetails, status: number): string {
  const parts: string[] = [];
  const head = problem.detail ?? problem.title;
  if (head) parts.push(head);
  for (const e of problem.errors ?? []) parts.push(`${e.path}: ${e.message}`);
  return parts.length > 0 ? parts.join('; ') : `HTTP ${status}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describeNetworkError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = describeError(error);
  return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
}
