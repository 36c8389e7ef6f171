/** `intake:` what the intakes of all flows share (each flow's own rules are `flows[].intake`). */
import { z } from 'zod';

export const intakeSchema = z.strictObject({
  /**
   * Files read and recorded at once, across all flows (each flow takes its own one at a time). The
   * daemon's memory peak grows with it: docs/reliability.md, "Memory budget". Default 2.
   */
  concurrentFiles: z
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2)
    .describe('Files read and recorded at once, across all flows (each flow takes its own one at a time); the memory peak grows with it. Default 2.'),
});
export type IntakeConfig = z.infer<typeof intakeSchema>;
