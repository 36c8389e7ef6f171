/**
 * One scan of the intake, as the scheduler runs it: first what earlier failures left (a recovery
 * after a file failed past its claim, error reports and an exchange's reply not yet written), then
 * the full scan of the inbox, whose listing an exchange flow's folder watch sees too
 * (`exchange-folder.ts`). It never throws: a failed scan is logged and tried again at the next
 * rescan.
 */
import type { Logger } from '../log.js';
import { createExchangeFolderWatch } from './exchange-folder.js';
import { writeDueReply } from './exchange-reply.js';
import type { IntakeContext } from './intake-context.js';
import { writePendingReports } from './pending-reports.js';
import { recoverIntake } from './recover.js';
import { scanInbox } from './scan-inbox.js';
import type { StabilityTracker } from './stability.js';

export interface InboxScan {
  /** Scan once; resolves with the earliest time a waiting file may be ready (null: none waits on time). Never rejects. */
  run(signal: AbortSignal): Promise<number | null>;
  /** A recovery left failures: the next scan recovers first. */
  recoveryFailed(): void;
}

export function createInboxScan(ctx: IntakeContext, tracker: StabilityTracker, logger: Logger): InboxScan {
  let recoveryDue = false;
  const folder = createExchangeFolderWatch(ctx);
  const onListing = folder ? (names: readonly string[]) => folder.observe(names) : undefined;
  return {
    async run(signal) {
      try {
        if (recoveryDue) {
          // A file failed after its claim (disk full, store busy): finish or redo it like after a crash.
          const report = await recoverIntake(ctx);
          recoveryDue = report.failures > 0;
          logger.info({ recovery: report }, 'intake recovery after a failed file done');
        }
        // Reports that failed before (REPORT_WRITE_FAILED) are kept in the store until written, and so is an exchange's reply.
        await writePendingReports(ctx);
        await writeDueReply(ctx);
        const result = await scanInbox(ctx, tracker, { signal, ...(onListing ? { onListing } : {}) });
        if (result.failed > 0) recoveryDue = true;
        return result.nextCheckAt;
      } catch (error) {
        logger.error({ err: error }, 'inbox scan failed; trying again at the next rescan');
        return null;
      }
    },
    recoveryFailed() {
      recoveryDue = true;
    },
  };
}
