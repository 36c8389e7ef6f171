/**
 * What a recorded outcome tells the world: one log line on the row's logger, the Prometheus
 * counters, and the exporter's wake-up when an acknowledgement was enqueued. Each state change is
 * logged once, here, after it is in the store.
 */
import type { Metrics } from '../metrics/metrics.js';
import type { ClassifiedAttempt } from './send-row.js';

export interface OutcomeReportOptions {
  flowName: string;
  metrics?: Pick<Metrics, 'submissions' | 'retries'> | undefined;
  /** Called after an outcome enqueued an acknowledgement. */
  onAcknowledged?: (() => void) | undefined;
}

export interface OutcomeReport {
  /** The outcome and its row's new state are in the store. */
  written(outcome: ClassifiedAttempt): void;
  /** The row had left the in-flight state (requeued or finished meanwhile): nothing was written. */
  notWritten(outcome: ClassifiedAttempt): void;
}

export function createOutcomeReport(options: OutcomeReportOptions): OutcomeReport {
  const { flowName, metrics } = options;
  return {
    written(outcome) {
      const { attempt, classification, log, update } = outcome;
      const fields = fieldsOf(outcome);
      if (outcome.ack) options.onAcknowledged?.();
      metrics?.submissions.inc({ flow: flowName, outcome: attempt.outcome });
      if (attempt.outcome === 'retry') metrics?.retries.inc({ flow: flowName });
      if (attempt.outcome === 'accepted') log.info(fields, classification.reason);
      else if (attempt.outcome === 'retry')
        log.info({ ...fields, nextAttemptAt: new Date(update.nextAttemptAt).toISOString() }, `Will retry: ${classification.reason}`);
      else if (attempt.outcome === 'paused') log.debug(fields, classification.reason);
      else log.warn(fields, update.lastError ?? classification.reason);
    },
    notWritten(outcome) {
      outcome.log.warn(fieldsOf(outcome), 'The row left the in-flight state while it was being sent; outcome not recorded');
    },
  };
}

function fieldsOf({ attempt, classification, update }: ClassifiedAttempt): Record<string, unknown> {
  return {
    outcome: attempt.outcome,
    httpStatus: classification.httpStatus,
    code: update.lastErrorCode,
    attempts: update.attempts,
    platformId: update.platformId,
  };
}
