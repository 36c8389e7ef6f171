/**
 * A save from the mapping page, every way it ends as an outcome for the audit, the log and the
 * answer: checked and not written (422), changed on disk since the page read it or a folder that
 * refuses writes (409), saved but the reload refused (409: the file stays, the daemon keeps the
 * mappings it had), or saved and reloaded (200). A fault of our own is thrown.
 */
import path from 'node:path';
import type { FlowConfig } from '../../../config/flow-schema.js';
import { isConnectorError } from '../../../errors.js';
import { AUDIT_RESULT, type AuditResult } from '../../../store/audit.js';
import type { MessageText } from '../../../shared/types.js';
import type { OperatorActions } from '../deps.js';
import type { YamlProblem } from './check-mapping.js';
import { saveMappingFile } from './mapping-file.js';

/** How a save ended, for the audit, the log and the answer. */
export interface SaveOutcome {
  result: AuditResult;
  /** For the log. */
  detail: string;
  /** For the console, in its language. */
  text: MessageText;
  status: 200 | 409 | 422;
  saved: boolean;
  file: string;
  backup: string | null;
  reload: { ok: true } | { ok: false; errors: string[] } | null;
  error: { code: string; message: string; problems?: YamlProblem[] } | null;
}

/** An audit detail stays readable: a mapping with a hundred problems is summed up, not pasted. */
const MAX_DETAIL = 2_000;

/** Check, back up, write, reload; every way it ends, as an outcome (a fault of our own is thrown). */
export async function saveAndReload(
  flow: FlowConfig,
  yaml: string,
  version: string | null,
  at: number,
  operator: Pick<OperatorActions, 'reloadMappings'>,
): Promise<SaveOutcome> {
  const none = { saved: false, file: flow.mapping, backup: null, reload: null } as const;
  let written;
  try {
    written = await saveMappingFile(flow, yaml, { version, now: at });
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    return {
      ...none,
      result: AUDIT_RESULT.failed,
      status: 409,
      detail: cut(`${error.code}: ${error.message}`),
      text: { key: 'mappingNotSaved', params: { code: error.code } },
      error: { code: error.code, message: error.message },
    };
  }
  if (!written.saved) {
    if (written.reason === 'changed') {
      return {
        ...none,
        result: AUDIT_RESULT.failed,
        status: 409,
        detail: cut(`not saved: ${written.message}`),
        text: { key: 'mappingChangedOnDisk' },
        error: { code: 'CONSOLE_ACTION_FAILED', message: written.message },
      };
    }
    const { message, problems, code } = written.check;
    return {
      ...none,
      result: AUDIT_RESULT.failed,
      status: 422,
      detail: cut(`not saved: ${code}: ${message}`),
      text: { key: 'mappingNotSaved', params: { code } },
      error: { code, message, problems },
    };
  }
  const where = written.unchanged
    ? `${written.file} already held this YAML`
    : `saved ${written.file}${written.backup ? ` (the previous one kept as ${path.basename(written.backup)})` : ''}`;
  const reload = operator.reloadMappings();
  const base = { saved: true, file: written.file, backup: written.backup, reload };
  if (!reload.ok) {
    const message = `${where}, but the reload failed and the daemon keeps the mappings it had: ${reload.errors.join('; ')}`;
    return {
      ...base,
      result: AUDIT_RESULT.failed,
      status: 409,
      detail: cut(message),
      text: { key: 'mappingSavedNotReloaded', params: { file: path.basename(written.file) } },
      error: { code: 'MAPPING_INVALID', message },
    };
  }
  const text: MessageText = written.unchanged
    ? { key: 'mappingUnchanged', params: { file: path.basename(written.file) } }
    : { key: 'mappingSaved', params: { file: path.basename(written.file), backup: written.backup ? path.basename(written.backup) : '—' } };
  return { ...base, result: AUDIT_RESULT.ok, status: 200, detail: `${where}; mappings reloaded`, text, error: null };
}

function cut(detail: string): string {
  return detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}…` : detail;
}
