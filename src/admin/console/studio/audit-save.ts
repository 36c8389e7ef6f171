/**
 * A save of the mapping page, audited: one audit row for every save tried (saved or failed), made
 * durable before the answer, and one log line (`console action`, or `console action failed` with
 * its code).
 */
import type { Logger } from '../../../log.js';
import type { WaitDurable } from '../../../shared/types.js';
import { AUDIT_RESULT, recordAudit } from '../../../store/audit.js';
import type { Db } from '../../../store/open-store.js';
import type { SaveOutcome } from './save-and-reload.js';

export const SAVE_MAPPING_ACTION = 'save-mapping';

export interface SaveAttempt {
  at: number;
  actor: string;
  address: string | null;
  flow: { name: string; mapping: string };
  outcome: SaveOutcome;
}

/** Record the save; resolves with the audit id once the row is durable. */
export async function auditSave(db: Db, durable: WaitDurable, log: Logger, save: SaveAttempt): Promise<number> {
  const { outcome, flow } = save;
  const entry = {
    at: save.at,
    actor: save.actor,
    address: save.address,
    action: SAVE_MAPPING_ACTION,
    flow: flow.name,
    target: flow.mapping,
    result: outcome.result,
    detail: outcome.detail,
    detailText: JSON.stringify(outcome.text),
  };
  const id = recordAudit(db, entry);
  await durable();
  const fields = {
    audit: id,
    actor: entry.actor,
    address: entry.address,
    action: entry.action,
    flow: flow.name,
    target: flow.mapping,
    result: entry.result,
    detail: entry.detail,
  };
  if (outcome.result === AUDIT_RESULT.failed) log.warn({ ...fields, code: outcome.error?.code ?? 'CONSOLE_ACTION_FAILED' }, 'console action failed');
  else log.info(fields, 'console action');
  return id;
}
