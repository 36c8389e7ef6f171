/**
 * What went wrong with a submission, in the console's language, from what the store keeps: the
 * error code, the HTTP status, the platform's answer (its problem details) and the attempt count.
 * The sentence the row carries (`last_error`) is the English one of the log and the
 * acknowledgement; it is not shown, except for the one part of it that is data and not ours: the
 * network's own reason when the platform gave no answer (`connect ECONNREFUSED …`).
 */
import type { Translate } from '../i18n.js';

/** The English frame our classification puts before the network's reason (`platform/classify-failure.ts`). */
const NO_ANSWER_PREFIX = 'No answer from the platform: ';

export interface SubmissionError {
  code: string | null;
  status: number | null;
  /** The platform's last answer (problem details), parsed, if it gave one. */
  answer?: unknown;
  attempts?: number;
  /** The English sentence on the row. */
  message: string | null;
}

/** Our sentence, and the platform's (or the network's) own words when there are some. */
export interface ErrorWords {
  text: string;
  /** Shown as a quotation: data, not ours. */
  quoted: string | null;
}

interface ProblemDetails {
  title?: unknown;
  detail?: unknown;
  existingRequestId?: unknown;
  errors?: unknown;
}

/** The platform's own words in its problem details: the detail (or title) and each field error. */
export function platformWords(answer: unknown): string | null {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const problem = answer as ProblemDetails;
  const words: string[] = [];
  const headline = typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : null;
  if (headline) words.push(headline);
  if (Array.isArray(problem.errors)) {
    for (const error of problem.errors.slice(0, 20)) {
      const { path, message } = (error ?? {}) as { path?: unknown; message?: unknown };
      if (typeof message === 'string') words.push(typeof path === 'string' && path !== '' ? `${path}: ${message}` : message);
    }
  }
  return words.length > 0 ? words.join('; ') : null;
}

function networkWords(message: string | null): string | null {
  return message !== null && message.startsWith(NO_ANSWER_PREFIX) ? message.slice(NO_ANSWER_PREFIX.length) : null;
}

/** The cause of a temporary failure: the status the platform answered, or no answer at all. */
function temporary(t: Translate, failure: SubmissionError): ErrorWords {
  if (failure.status === null) return { text: t.text({ key: 'noAnswer' })!, quoted: networkWords(failure.message) };
  if (failure.status === 409) return { text: t.text({ key: 'stillProcessing' })!, quoted: platformWords(failure.answer) };
  return { text: t.text({ key: 'unavailableStatus', params: { status: failure.status } })!, quoted: platformWords(failure.answer) };
}

export function errorWords(t: Translate, failure: SubmissionError): ErrorWords | null {
  if (failure.code === null) return null;
  const status = failure.status ?? '—';
  const answer = failure.answer as ProblemDetails | undefined;
  switch (failure.code) {
    case 'PLATFORM_UNAVAILABLE':
      return temporary(t, failure);
    case 'PLATFORM_REJECTED':
      return { text: t.text({ key: 'platformRejected', params: { status } })!, quoted: platformWords(failure.answer) };
    case 'PLATFORM_UNAUTHORIZED':
      return { text: t.text({ key: 'tokenRefused', params: { status } })!, quoted: platformWords(failure.answer) };
    case 'PLATFORM_RESPONSE_INVALID':
      return { text: t.text({ key: 'contractBroken', params: { status } })!, quoted: null };
    case 'PLATFORM_CONFLICT':
      return typeof answer?.existingRequestId === 'string'
        ? { text: t.text({ key: 'holdsExternalId', params: { existing: answer.existingRequestId } })!, quoted: platformWords(failure.answer) }
        : { text: t.text({ key: 'conflict', params: { status } })!, quoted: platformWords(failure.answer) };
    case 'SUBMISSION_DEAD': {
      const cause = temporary(t, failure);
      return { text: `${t.text({ key: 'gaveUp', params: { n: failure.attempts ?? 0 } })!}: ${cause.text}`, quoted: cause.quoted };
    }
    default:
      return { text: t.code(failure.code), quoted: null };
  }
}

/** An attempt as the timeline shows it, by its outcome (the status and the answer are shown beside it). */
export function attemptWords(t: Translate, attempt: { outcome: string | null; status: number | null; answer: unknown; error: string | null }): string | null {
  const status = attempt.status ?? '—';
  switch (attempt.outcome) {
    case 'accepted': {
      const id = (attempt.answer as { id?: unknown } | null)?.id;
      return t.text({ key: 'accepted', params: { id: typeof id === 'string' ? id : '—', status } })!;
    }
    case 'retry':
    case 'dead':
      return temporary(t, { code: 'PLATFORM_UNAVAILABLE', status: attempt.status, answer: attempt.answer, message: attempt.error }).text;
    case 'rejected':
      return t.text({ key: 'platformRejected', params: { status } })!;
    case 'paused':
      return t.text({ key: 'tokenRefused', params: { status } })!;
    case 'held':
      return errorWords(t, {
        code: attempt.status === null || attempt.status < 300 ? 'PLATFORM_RESPONSE_INVALID' : 'PLATFORM_CONFLICT',
        status: attempt.status,
        answer: attempt.answer,
        message: null,
      })!.text;
    default:
      return attempt.error === null ? null : t.code('INTERNAL_ERROR');
  }
}

/**
 * An export file's failure: ours in words, the system's reason quoted (the row keeps
 * `EACCES: cannot write <path>: <the system's words>`, from `export/write-export-files.ts`; our
 * English frame in it is dropped).
 */
export function exportErrorWords(t: Translate, error: string | null): ErrorWords | null {
  if (error === null) return null;
  return { text: t.text({ key: 'exportFailed' })!, quoted: error.replace(/^(\w+): cannot write /, '$1: ') };
}
