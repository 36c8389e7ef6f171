/** Small zod building blocks shared by the config sections. */
import path from 'node:path';
import { z } from 'zod';
import cron from 'node-cron';

/** A filesystem path; relative paths resolve against the working directory the daemon starts in. */
export const pathSchema = z
  .string()
  .min(1, 'must be a path')
  .transform((p) => path.resolve(p));

export const positiveMs = z.number().int().positive();
/** A duration a timer waits for: Node's timers take at most 2^31 - 1 ms (about 24.8 days); a longer one fires at once. */
export const timerMs = positiveMs.max(2_147_483_647, 'must be at most 2147483647 (about 24.8 days), the longest timer Node keeps');
export const nonNegativeMs = z.number().int().nonnegative();

/** A cron expression as node-cron reads it (5 or 6 fields). Validated with node-cron's own parser. */
export const cronSchema = z
  .string()
  .regex(/^\S+(\s+\S+){4,5}$/, 'must be a cron expression with 5 or 6 fields')
  .refine((expression) => cron.validate(expression), { message: 'is not a valid cron expression' });
