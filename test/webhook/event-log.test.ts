/** The stored events' log: a line a second, each event under its outcome, at most 200 named per outcome. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createEventLog } from '../../src/webhook/event-log.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { lines, logger };
}

describe('createEventLog', () => {
  afterEach(() => vi.useRealTimers());

  it('writes one line a second after the first event, and nothing while none arrive', () => {
    vi.useFakeTimers();
    const { lines, logger } = capture();
    const log = createEventLog(logger, 1_000);
    log.add('applied', () => 'EVT-000001 ORD-1 shipped');
    vi.advanceTimersByTime(500);
    log.add('stored', () => 'EVT-000002 ORD-1 confirmed');
    expect(lines).toHaveLength(0);
    vi.advanceTimersByTime(500);
    expect(lines).toMatchObject([
      { msg: '1 applied, 1 stored webhook event(s) stored', applied: 'EVT-000001 ORD-1 shipped', stored: 'EVT-000002 ORD-1 confirmed' },
    ]);
    vi.advanceTimersByTime(5_000);
    expect(lines).toHaveLength(1);
  });

  it('names at most 200 events of an outcome in a line and counts the rest', () => {
    const { lines, logger } = capture();
    const log = createEventLog(logger);
    for (let i = 1; i <= 250; i++) log.add('applied', () => `EVT-${i}`);
    log.flush();
    expect(lines[0]!.msg).toBe('250 applied webhook event(s) stored');
    expect(String(lines[0]!.applied).split(', ')).toHaveLength(201);
    expect(String(lines[0]!.applied)).toMatch(/EVT-200, and 50 more$/);
  });

  it("cuts a long name, so that a storm of long eventIds keeps a line under journald's 48 KiB", () => {
    const { lines, logger } = capture();
    const log = createEventLog(logger);
    const long = `EVT-${'x'.repeat(5_000)}`;
    for (const outcome of ['applied', 'stored', 'duplicate'] as const) for (let i = 0; i < 300; i++) log.add(outcome, () => long);
    log.flush();
    expect(String(lines[0]!.applied).split(', ')[0]).toBe(`EVT-${'x'.repeat(55)}…`);
    expect(JSON.stringify(lines[0]).length).toBeLessThan(48 * 1024);
  });
});
