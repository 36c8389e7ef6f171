/** `console:` the operator console served on the admin listener (`metrics.host:metrics.port`, at `/`). */
import { z } from 'zod';

export const CONSOLE_LANGUAGES = ['ru', 'en'] as const;
export type ConsoleLanguage = (typeof CONSOLE_LANGUAGES)[number];

export const consoleSchema = z.strictObject({
  /** Serve the console at `/` of the admin listener (needs `metrics.enabled`). Default true. */
  enabled: z.boolean().default(true),
  /**
   * The operator password. Secret: `{ fromCredential: console-password }` in production. Actions
   * always need it, and every page needs it once the admin listener is bound beyond loopback.
   * Default absent: read-only pages on loopback only, no actions.
   */
  password: z.string().min(1, 'must not be empty').optional(),
  /** Language of the console's text (the data is shown as it is). Default `ru`. */
  language: z.enum(CONSOLE_LANGUAGES).default('ru'),
  /** A login lasts this long, then the operator logs in again. Default 480 (8 h). */
  sessionTtlMinutes: z.number().int().positive().max(10_080).default(480),
});
export type ConsoleConfig = z.infer<typeof consoleSchema>;
