/** The daemon's cron jobs: what runs on a schedule, and which stage does it. */
import type { Config } from '../config/schema.js';
import type { Dispatcher } from '../delivery/dispatcher.js';
import type { Exporter } from '../export/index.js';
import type { Logger } from '../log.js';
import { runHousekeeping } from '../schedule/housekeeping.js';
import type { ScheduledJob } from '../schedule/scheduler.js';
import { summarise } from '../schedule/summary.js';
import type { Clock } from '../shared/types.js';
import type { Db } from '../store/open-store.js';

export interface ScheduleDeps {
  config: Config;
  db: Db;
  dispatcher: Pick<Dispatcher, 'wake'>;
  exporter: Pick<Exporter, 'flush'>;
  logger: Logger;
  clock: Clock;
}

/** The retry sweep, housekeeping and the daily summary; and the batch export when `export.mode` is `batch`. */
export function scheduledJobs(deps: ScheduleDeps): ScheduledJob[] {
  const { config, db, dispatcher, exporter, logger, clock } = deps;
  const jobs: ScheduledJob[] = [
    { name: 'retry-sweep', cron: config.schedules.retrySweep, run: () => dispatcher.wake() },
    { name: 'housekeeping', cron: config.schedules.housekeeping, run: () => runHousekeeping({ db, config, logger, now: clock() }) },
    { name: 'summary', cron: config.schedules.summary, run: () => logger.info({ summary: summarise(db, clock()) }, 'daily summary') },
  ];
  if (config.export?.mode === 'batch') {
    jobs.push({ name: 'export-batch', cron: config.export.batchCron, run: async () => void (await exporter.flush()) });
  }
  return jobs;
}
