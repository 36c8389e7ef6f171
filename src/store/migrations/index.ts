/** Migration N is `MIGRATIONS[N - 1]`. Append only. */
import { INITIAL_SCHEMA } from './001-initial.js';
import { HARDENING_SCHEMA } from './002-hardening.js';
import { EXPORT_NAMES_SCHEMA } from './003-export-names.js';
import { STAGED_RECORDING_SCHEMA } from './004-staged-recording.js';
import { CONSOLE_SCHEMA } from './005-console.js';
import { READ_ATTEMPTS_SCHEMA } from './006-read-attempts.js';
import { CONSOLE_HISTORY_SCHEMA } from './007-console-history.js';
import { EXCHANGES_SCHEMA } from './008-exchanges.js';
import { AUDIT_TEXT_SCHEMA } from './009-audit-text.js';
import { DOCUMENTS_SCHEMA } from './010-documents.js';
import { EXCHANGE_FOLDER_SCHEMA } from './011-exchange-folder.js';
import { SET_ASIDE_FILES_SCHEMA } from './012-set-aside-files.js';
import { OLDEST_PENDING_SCHEMA } from './013-oldest-pending.js';

export const MIGRATIONS: readonly string[] = [
  INITIAL_SCHEMA,
  HARDENING_SCHEMA,
  EXPORT_NAMES_SCHEMA,
  STAGED_RECORDING_SCHEMA,
  CONSOLE_SCHEMA,
  READ_ATTEMPTS_SCHEMA,
  CONSOLE_HISTORY_SCHEMA,
  EXCHANGES_SCHEMA,
  AUDIT_TEXT_SCHEMA,
  DOCUMENTS_SCHEMA,
  EXCHANGE_FOLDER_SCHEMA,
  SET_ASIDE_FILES_SCHEMA,
  OLDEST_PENDING_SCHEMA,
];
