/** Service-wide keys: logging, shutdown, schedules, metrics, the console, and the in-process sandbox of the demo. */
import { z } from 'zod';
import { cronSchema, positiveMs } from './common.js';
import { consoleSchema } from './console-schema.js';

export const logSchema = z.strictObject({
  level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
});

export const schedulesSchema = z.strictObject({
  /** Retry sweep: wakes the dispatcher for rows whose backoff has elapsed. Default every 30 s. */
  retrySweep: cronSchema.default('*/30 * * * * *'),
  /** Housekeeping: old event ids, finished rows and archive folders. Default 03:15 daily. */
  housekeeping: cronSchema.default('15 3 * * *'),
  /** One summary log line with counts per flow and state. Default 08:00 daily. */
  summary: cronSchema.default('0 8 * * *'),
});

export const metricsSchema = z.strictObject({
  /** Serve `GET /metrics` (Prometheus). Default true. */
  enabled: z.boolean().default(true),
  host: z.string().default('127.0.0.1'),
  /** Admin port for /metrics, /healthz, /readyz and the console. Default 9464; 0 picks a free one. */
  port: z.number().int().min(0).max(65_535).default(9464),
});

/** The built-in platform emulator, started in-process (the demo; never in production). */
export const sandboxSchema = z.strictObject({
  enabled: z.boolean().default(false),
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65_535).default(8787),
  /** Orders progress confirmed → shipped → delivered by themselves. */
  demo: z.boolean().default(true),
  /** Supplier token the sandbox accepts. */
  supplierToken: z.string().optional(),
});

export const serviceKeys = {
  /** Bound on a graceful stop (keep it below systemd's TimeoutStopSec). Default 20 s. */
  shutdownTimeoutMs: positiveMs.default(20_000).describe("Bound on a graceful stop, below systemd's TimeoutStopSec. Default 20000."),
  /** Rows finished longer ago than this are deleted by housekeeping. Default 90. */
  retentionDays: z.number().int().positive().default(90).describe('Rows finished longer ago than this are deleted by housekeeping. Default 90.'),
  log: logSchema.default({ level: 'info' }).describe('Log level. Default info.'),
  schedules: schedulesSchema
    .default({ retrySweep: '*/30 * * * * *', housekeeping: '15 3 * * *', summary: '0 8 * * *' })
    .describe('Cron schedules of the retry sweep, housekeeping and the summary log line.'),
  metrics: metricsSchema.default({ enabled: true, host: '127.0.0.1', port: 9464 }).describe('The admin listener: /metrics, /healthz, /readyz and the console.'),
  sandbox: sandboxSchema
    .default({ enabled: false, host: '127.0.0.1', port: 8787, demo: true })
    .describe('The built-in platform emulator, in-process: the demo, never production.'),
  console: consoleSchema.default({ enabled: true, language: 'ru', sessionTtlMinutes: 480 }).describe('The operator console served on the admin listener.'),
};
