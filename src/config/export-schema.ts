/** `export:` where order status changes are written for the ERP to import. */
import { z } from 'zod';
import { pathSchema, cronSchema } from './common.js';

export const exportSchema = z.strictObject({
  /** The ERP's import folder. */
  folder: pathSchema,
  /** The export mapping (columns, format, encoding, file name). */
  mapping: pathSchema,
  /** `perEvent`: a file per status change; `batch`: pending changes gathered into one file on `batchCron`. */
  mode: z.enum(['perEvent', 'batch']).default('perEvent'),
  /** When `mode: batch`. Default every minute. */
  batchCron: cronSchema.default('* * * * *'),
});
export type ExportConfig = z.infer<typeof exportSchema>;
