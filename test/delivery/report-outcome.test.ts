/** What a recorded outcome tells the world (`report-outcome.ts`): one line, the counters, the exporter's wake-up. */
import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createOutcomeReport } from '../../src/delivery/report-outcome.js';
import type { ClassifiedAttempt } from '../../src/delivery/send-row.js';
import { createLogger } from '../../src/log.js';

const T = Date.parse('2026-06-12T10:00:00Z');

/** A report with real counters on a registry of its own, the lines it logs and the wake-ups it gave. */
function reportUnderTest() {
  const registry = new Registry();
  const submissions = new Counter({ name: 'submissions', help: 'test', labelNames: ['flow', 'outcome'] as const, registers: [registry] });
  const retries = new Counter({ name: 'retries', help: 'test', labelNames: ['flow'] as const, registers: [registry] });
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  let acknowledged = 0;
  const report = createOutcomeReport({ flowName: 'requests', metrics: { submissions, retries }, onAcknowledged: () => (acknowledged += 1) });
  const counts = async () =>
    Object.fromEntries(
      (await registry.getMetricsAsJSON()).flatMap((metric) =>
        metric.values.map((value) => [`${metric.name}${value.labels.outcome ? ` ${value.labels.outcome}` : ''}`, value.value]),
      ),
    );
  return { report, log, lines, counts, acknowledged: () => acknowledged };
}

function attempt(log: ClassifiedAttempt['log'], outcome: 'accepted' | 'retry', over: Partial<ClassifiedAttempt['update']> = {}): ClassifiedAttempt {
  const accepted = outcome === 'accepted';
  return {
    submissionId: 7,
    attempt: { requestId: 'r7', startedAt: T, finishedAt: T, httpStatus: accepted ? 201 : 503, outcome, error: null },
    update: {
      state: accepted ? 'accepted' : 'pending',
      attempts: 1,
      nextAttemptAt: T + 1_000,
      firstAttemptAt: T,
      lastAttemptAt: T,
      lastStatus: accepted ? 201 : 503,
      lastErrorCode: accepted ? null : 'PLATFORM_UNAVAILABLE',
      lastError: null,
      result: null,
      platformId: accepted ? 'PRC-REQ-000007' : null,
      finishedAt: accepted ? T : null,
      now: T,
      ...over,
    },
    ack: accepted ? { channel: 'ack:requests', sourceKey: '7:accepted:r7', record: {}, now: T } : undefined,
    classification: {
      outcome,
      code: accepted ? null : 'PLATFORM_UNAVAILABLE',
      reason: accepted ? 'Accepted as PRC-REQ-000007' : 'The platform is unavailable (503)',
      details: '',
      countsAsPlatformFailure: !accepted,
      httpStatus: accepted ? 201 : 503,
    },
    slot: 'regular',
    log,
  };
}

describe('createOutcomeReport', () => {
  it('an acceptance written: counted, logged with its reason, and the exporter woken for its acknowledgement', async () => {
    const { report, log, lines, counts, acknowledged } = reportUnderTest();
    report.written(attempt(log, 'accepted'));
    expect(await counts()).toEqual({ 'submissions accepted': 1 });
    expect(acknowledged()).toBe(1);
    expect(lines).toMatchObject([{ level: 'info', msg: 'Accepted as PRC-REQ-000007', outcome: 'accepted', httpStatus: 201, platformId: 'PRC-REQ-000007' }]);
  });

  it('a retry written: counted as a retry too, logged with when it goes again', async () => {
    const { report, log, lines, counts, acknowledged } = reportUnderTest();
    report.written(attempt(log, 'retry'));
    expect(await counts()).toEqual({ 'submissions retry': 1, retries: 1 });
    expect(acknowledged()).toBe(0);
    expect(lines).toMatchObject([
      { level: 'info', msg: 'Will retry: The platform is unavailable (503)', code: 'PLATFORM_UNAVAILABLE', nextAttemptAt: new Date(T + 1_000).toISOString() },
    ]);
  });

  it('an outcome not written (its row left the in-flight state): a warning, nothing counted, nobody woken', async () => {
    const { report, log, lines, counts, acknowledged } = reportUnderTest();
    report.notWritten(attempt(log, 'accepted'));
    expect(await counts()).toEqual({});
    expect(acknowledged()).toBe(0);
    expect(lines).toMatchObject([{ level: 'warn', msg: 'The row left the in-flight state while it was being sent; outcome not recorded' }]);
  });
});
