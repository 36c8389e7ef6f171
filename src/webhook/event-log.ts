/**
 * The log of stored webhook events: one `info` line per second while events arrive, naming each
 * event under its outcome (`applied: "EVT-000123 ORD-2026-000042 shipped, …"`), instead of a line
 * per group. Under load a group is a handful of events, and a line per group was about 11 µs of
 * CPU per event (a tenth of the listener's work: pino's formatting, redaction and scrubbing, and
 * the write's hand-off), for lines a person reads no faster. Each state change is still logged
 * once, at most a second late; the store, not the log, is the record of what was received.
 * `flush()` writes what is pending (the listener's stop); a line names at most `MAX_LISTED`
 * events of an outcome and counts the rest, so a storm cannot make one line unbounded.
 */
import type { Logger } from '../log.js';
import type { EventOutcome } from '../store/events.js';

/** Events named per outcome in one line; the rest are counted. */
const MAX_LISTED = 200;

export interface EventLog {
  /** Note one stored event: `line` names it (`EVT-000123 ORD-2026-000042 shipped`). */
  add(outcome: EventOutcome, line: string): void;
  /** Write the pending line now. */
  flush(): void;
}

export function createEventLog(logger: Logger | undefined, intervalMs = 1_000): EventLog {
  let listed: Partial<Record<EventOutcome, string[]>> = {};
  let counts: Partial<Record<EventOutcome, number>> = {};
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const entries = Object.entries(counts) as [EventOutcome, number][];
    if (entries.length === 0) return;
    const fields: Record<string, string> = {};
    for (const [outcome, count] of entries) {
      const names = listed[outcome] ?? [];
      fields[outcome] = names.join(', ') + (count > names.length ? `, and ${count - names.length} more` : '');
    }
    logger?.info(fields, `${entries.map(([outcome, count]) => `${count} ${outcome}`).join(', ')} webhook event(s) stored`);
    listed = {};
    counts = {};
  };
  return {
    add(outcome, line) {
      if (logger === undefined) return;
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      const names = (listed[outcome] ??= []);
      if (names.length < MAX_LISTED) names.push(line);
      if (timer === undefined) {
        timer = setTimeout(flush, intervalMs);
        timer.unref();
      }
    },
    flush,
  };
}
