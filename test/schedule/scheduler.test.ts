import cron from 'node-cron';
import { describe, expect, it } from 'vitest';
import { createScheduler, isValidCron } from '../../src/schedule/scheduler.js';
import { silentLogger } from '../../src/log.js';

describe('createScheduler', () => {
  it('skips a tick that overlaps the running one and survives a throwing job', async () => {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const scheduler = createScheduler(
      [
        {
          name: 'slow',
          cron: '0 0 1 1 *',
          run: async () => {
            runs += 1;
            await gate;
          },
        },
        {
          name: 'boom',
          cron: '0 0 1 1 *',
          run: () => {
            throw new Error('boom');
          },
        },
      ],
      silentLogger,
    );
    await scheduler.start();
    const first = scheduler.runNow('slow');
    const second = scheduler.runNow('slow');
    release();
    await Promise.all([first, second]);
    expect(runs).toBe(1);
    await expect(scheduler.runNow('boom')).resolves.toBeUndefined();
    await scheduler.runNow('slow');
    expect(runs).toBe(2);
    await scheduler.stop();
  });

  it('schedules once for two starts, unschedules on stop, and schedules again on a restart', async () => {
    const scheduled = (): number => [...cron.getTasks().values()].filter((task) => task.name === 'start-stop-job').length;
    const scheduler = createScheduler([{ name: 'start-stop-job', cron: '0 0 1 1 *', run: () => undefined }], silentLogger);
    await Promise.all([scheduler.start(), scheduler.start()]);
    expect(scheduled()).toBe(1);
    await Promise.all([scheduler.stop(), scheduler.stop()]);
    expect(scheduled()).toBe(0);
    await scheduler.start();
    expect(scheduled()).toBe(1);
    await scheduler.stop();
    expect(scheduled()).toBe(0);
  });

  it('validates cron expressions', () => {
    expect(isValidCron('*/30 * * * * *')).toBe(true);
    expect(isValidCron('61 * * * *')).toBe(false);
  });
});
