/**
 * The log of stored webhook events: one `info` line per second while events arrive, naming each
 * event under its outcome (`applied: "EVT-000123 ORD-2026-000042 shipped, …"`), instead of a line
 * per group. Under load a group is a handful of events, and a line per group was a sizeable share
 * of the listener's CPU per event (pino's formatting, redaction and scrubbing, and the write's
 * hand-off; docs/performance.md, Webhooks), for lines a person reads no faster. Each stored event
 * is counted in a line at most a second late, and named in it unless more than `MAX_LISTED` of its
 * outcome came that second (a storm: the rest are counted, "and N more"); the store and the
 * console, not the log, are the record of what was received. A name is cut to `MAX_NAME` characters
 * (an eventId is as long as its sender made it), so a line stays under journald's 48 KiB line limit
 * and is never split. `flush()` writes what is pending (the listener's stop, as it begins and after
 * the last group).
 */
import type { Logger } from '../log.js';
import type { EventOutcome } from '../store/events.js';

/** Events named per outcome in one line; the rest are counted. */
const MAX_LISTED = 200;
/** Characters of one event's name in a line (three outcomes × 200 names × 60 characters: about 36 KB). */
const MAX_NAME = 60;

export interface EventLog {
  /** Note one stored event: `name()` names it (`EVT-000123 ORD-2026-000042 shipped`), called only while its outcome's names are listed. */
  add(outcome: EventOutcome, name: () => string): void;
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
    add(outcome, name) {
      if (logger === undefined) return;
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      const names = (listed[outcome] ??= []);
      if (names.length < MAX_LISTED) {
        const line = name();
        names.push(line.length > MAX_NAME ? `${line.slice(0, MAX_NAME - 1)}…` : line);
      }
      if (timer === undefined) {
        timer = setTimeout(flush, intervalMs);
        timer.unref();
      }
    },
    flush,
  };
}
