/**
 * node-cron jobs with the two guarantees a daemon needs: a tick never overlaps the previous run of
 * the same job (it is skipped and logged), and a tick never throws into the void (errors are caught
 * and logged with the job's name).
 */
import cron, { type ScheduledTask } from 'node-cron';
import { ConnectorError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Component } from '../shared/lifecycle.js';
import { createStartStop } from '../shared/start-stop.js';

export interface ScheduledJob {
  /** Short name for logs: `rescan`, `retry-sweep`, `housekeeping`, `summary`. */
  name: string;
  /** Cron expression (5 or 6 fields, node-cron syntax). */
  cron: string;
  run: () => Promise<void> | void;
}

export interface Scheduler extends Component {
  /** Schedule every job. Idempotent. */
  start(): Promise<void>;
  /** Unschedule them and wait for the runs in progress. */
  stop(): Promise<void>;
  /** Run a job now (tests, `SIGHUP`), honouring the no-overlap rule. Resolves when it finished or was skipped. */
  runNow(name: string): Promise<void>;
}

export function createScheduler(jobs: readonly ScheduledJob[], logger: Logger): Scheduler {
  const tasks: ScheduledTask[] = [];
  const running = new Map<string, Promise<void>>();

  const tick = (job: ScheduledJob): Promise<void> => {
    if (running.has(job.name)) {
      logger.warn({ job: job.name }, 'scheduled job still running; this tick is skipped');
      return running.get(job.name)!;
    }
    const run = (async () => {
      try {
        await job.run();
      } catch (error) {
        logger.error({ job: job.name, err: error }, 'scheduled job failed');
      } finally {
        running.delete(job.name);
      }
    })();
    running.set(job.name, run);
    return run;
  };

  const lifecycle = createStartStop({
    async start() {
      for (const job of jobs) tasks.push(cron.schedule(job.cron, () => tick(job), { name: job.name }));
    },
    async stop() {
      for (const task of tasks.splice(0)) await task.destroy();
      await Promise.allSettled([...running.values()]);
    },
    afterStop: 'restart',
  });

  return {
    name: 'schedules',
    start: lifecycle.start,
    stop: lifecycle.stop,
    runNow(name) {
      const job = jobs.find((j) => j.name === name);
      if (!job) return Promise.reject(new ConnectorError('INTERNAL_ERROR', `No scheduled job is named ${name}`));
      return tick(job);
    },
  };
}

export function isValidCron(expression: string): boolean {
  return cron.validate(expression);
}
