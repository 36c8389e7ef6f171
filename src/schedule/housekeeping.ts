/**
 * The housekeeping job: forgets event ids past `webhook.retentionDays`, finished rows past
 * `retentionDays`, written export rows past `retentionDays`, and deletes `archive/YYYY-MM-DD/`
 * folders older than each flow's `intake.archiveRetentionDays`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import { INBOX_DIRS, isArchiveDayName } from '../shared/inbox-layout.js';
import { localDate } from '../shared/local-time.js';
import type { Db } from '../store/open-store.js';
import { deleteEventsOlderThan } from '../store/events.js';
import { deleteWrittenExportsOlderThan } from '../store/exports.js';
import { deleteFinishedFilesBefore, deleteFinishedSubmissionsBefore } from '../store/housekeeping.js';

const DAY_MS = 86_400_000;

export interface HousekeepingReport {
  events: number;
  submissions: number;
  files: number;
  exports: number;
  archiveFolders: string[];
}

export async function runHousekeeping(deps: { db: Db; config: Config; logger: Logger; now: number }): Promise<HousekeepingReport> {
  const { db, config, now } = deps;
  const rowsCutoff = now - config.retentionDays * DAY_MS;
  const report: HousekeepingReport = {
    events: config.webhook ? deleteEventsOlderThan(db, now - config.webhook.retentionDays * DAY_MS) : 0,
    submissions: deleteFinishedSubmissionsBefore(db, rowsCutoff),
    files: deleteFinishedFilesBefore(db, rowsCutoff),
    exports: deleteWrittenExportsOlderThan(db, rowsCutoff),
    archiveFolders: [],
  };
  for (const flow of config.flows) {
    const archive = path.join(flow.inbox, INBOX_DIRS.archive);
    const oldest = localDate(now - flow.intake.archiveRetentionDays * DAY_MS);
    for (const day of await listDayFolders(archive)) {
      if (day < oldest) {
        await fs.rm(path.join(archive, day), { recursive: true, force: true });
        report.archiveFolders.push(path.join(archive, day));
      }
    }
  }
  deps.logger.info({ housekeeping: report }, 'housekeeping done');
  return report;
}

async function listDayFolders(folder: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(folder, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && isArchiveDayName(e.name)).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
