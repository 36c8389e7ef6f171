/**
 * What problems, notes and the platform's answers say, by key, in English; `texts-ru.ts` has the same
 * keys. A problem carries its key and parameters (`MessageText`, set where it is found); the console
 * words it here in its own language, while the report files and the log keep the English sentence
 * the problem was made with. An entry is a text with `{name}` placeholders, or plural forms chosen
 * by the count `{n}` (Intl.PluralRules of the language).
 */
import type { Entry } from './i18n-entry.js';

export const textsEn = {
  // A field's value (after the field's name and its value).
  empty: 'is empty',
  required: 'is required',
  notANumber: 'is not a number',
  notWholeNumber: 'is not a whole number',
  notADate: 'is not a real date in the form {format}',
  wrongType: 'must be a {expected}',
  tooLong: { one: 'is longer than {n} character', other: 'is longer than {n} characters' },
  tooManyLines: { one: 'has more than {n} line', other: 'has more than {n} lines' },
  noLines: 'has no lines',
  outOfRange: 'is out of range',
  notEmail: 'is not an e-mail address',
  wrongShape: 'has the wrong shape',
  unknownField: 'is not a field of the platform',
  invalid: 'is not valid',
  lineDuplicate: 'repeats the lineId of {earlier}',
  innDigits: 'must hold digits only',
  innLength: { one: 'must be 10 or 12 digits (it has {n})', other: 'must be 10 or 12 digits (it has {n})' },
  innCheck: 'fails the INN check digit',
  pastDate: 'lies in the past (today is {today})',
  orderIdShape: 'must look like ORD-2026-000123',
  externalIdConflict: 'was recorded before with a different content; not submitted',
  // A row or a record.
  columnMissing: 'column "{column}" (named by {key}) is not in the header',
  groupEmpty: 'is empty (column "{column}" groups the rows)',
  groupDisagrees: 'disagrees with row {row} ("{value}") in column "{column}"',
  groupNotAdjacent: 'appears again after its rows ended: the rows of one request must be adjacent',
  notARecord: 'is not a record (an object)',
  linesNotArray: 'must be a list of lines',
  // The whole file.
  noRecords: 'holds no records (only a header, or nothing)',
  readerFault: 'could not be read because of a fault in the connector, not in the file: the file was rejected; report it, with the file',
  tooManyProblems: 'more than {n} problems: the file was not read further and nothing in it was submitted (does the mapping fit this export?)',
  moreProblems: {
    one: '{n} more problem from row {row} on is not listed (the report shows the first {shown})',
    other: '{n} more problems from row {row} on are not listed (the report shows the first {shown})',
  },
  moreConflicts: {
    one: '{n} more externalId conflict from row {row} on is not listed',
    other: '{n} more externalId conflicts from row {row} on are not listed',
  },
  fileChanged: 'changed while it was read ({before} → {after} bytes): nothing in it was submitted; export it again',
  // Notes.
  duplicate: '"{externalId}" is already in the outbox with the same content; not recorded again',
  moreDuplicates: {
    one: '{n} more request from row {row} on is already in the outbox with the same content',
    other: '{n} more requests from row {row} on are already in the outbox with the same content',
  },
  rejectedWhole: {
    one: 'The file was rejected as a whole: its {n} valid record was not recorded',
    other: 'The file was rejected as a whole: none of its {n} valid records was recorded',
  },
  exchangeSettings: "1C's settings: it reads EnterpriseData {theirs}; the exchange will be in {agreed}; answered with this program's settings",
  exchangeNoVersion:
    "1C's settings: it reads EnterpriseData {theirs}, none of which this flow reads ({ours}); answered with this program's settings, but 1C cannot exchange until a version is shared",
  exchangeStale: 'Message {no} was taken before (the last one taken is {last}): 1C wrote it again after a failure of its own; its documents are not read again',
  exchangeData: 'Message {no} (EnterpriseData {version}): its purchase orders are read, and it is acknowledged to 1C once recorded',
  exchangeUnnumbered: 'A message without a number (EnterpriseData {version}): its documents are read; nothing is acknowledged for it',
  // A document seen again or withdrawn (intake/decide-document.ts).
  documentRenumbered: '{number} was renumbered or redated in 1C after it was sent as {sentAs}: only its new number is recorded',
  documentRenumberedWaiting: '{number} was renumbered or redated before it was sent: it will be sent as it is now',
  documentReplaced: '{number} was changed before it was sent: the waiting request now holds the current version',
  documentReposted: '{number} was posted again in 1C after it was withdrawn: it will be sent',
  documentEdited: '{number} was changed in 1C after it was sent as {sentAs}: not sent again (see the attention page)',
  documentWithdrawnWaiting: '{number} was unposted or deleted in 1C before it was sent: it will not be sent',
  documentWithdrawnSent: '{number} was unposted or deleted in 1C after it was sent as {sentAs}: cancel it on the platform',
  documentWithdrawnInFile: 'document {id} is both sent and withdrawn in this file; the withdrawal is not applied',
  // The platform's answers (the platform's own words follow them).
  noAnswer: 'No answer from the platform',
  unavailableStatus: 'The platform failed temporarily ({status})',
  stillProcessing: 'The platform is still processing the first request with this Idempotency-Key (409)',
  holdsExternalId: 'The platform already holds this externalId as {existing} (409)',
  conflict: 'The platform answered {status} (conflict)',
  tokenRefused: 'The platform refused the token ({status})',
  platformRejected: 'The platform rejected it for good ({status})',
  contractBroken: 'The platform answered {status}, but its answer breaks the contract',
  unexpectedStatus: 'Unexpected answer {status} from the platform',
  accepted: 'Accepted by the platform as {id} ({status})',
  gaveUp: { one: 'Given up after {n} attempt', other: 'Given up after {n} attempts' },
  // An operator's action, done (its detail in the audit).
  requeued: { one: '{n} submission requeued with its Idempotency-Key', other: '{n} submissions requeued with their Idempotency-Key' },
  nothingToRetry: 'nothing was rejected, held or dead',
  deadRequeued: { one: '{n} dead letter requeued', other: '{n} dead letters requeued' },
  noDeadLetters: 'no dead letters',
  retaken: 'moved back into the inbox as {name}',
  probeSent: 'a probe is sent now',
  alreadySending: 'the flow was sending already',
  noticeResolved: 'marked handled',
  noticeClosedAlready: 'the notice was closed already',
  actionFailed: 'not done ({code})',
  retakeNoFile: 'file {id} is not a file of this flow',
  retakeNotRejected: '{name} is not rejected: there is nothing to take again',
  retakeGone: '{name} is no longer in rejected/: drop it into the inbox by hand',
  retakeUnsafeName: 'file {id} has an unsafe name',
  retakeNotRegular: '{name} in rejected/ is not a regular file any more; it was not moved',
  retakeNoName: 'no free name for {name} in the inbox',
  mappingSaved: 'saved {file} (the previous one kept as {backup}); mappings reloaded',
  mappingUnchanged: '{file} already held this YAML; mappings reloaded',
  mappingSavedNotReloaded: 'saved {file}, but the reload failed: the daemon keeps the mappings it had',
  mappingNotSaved: 'not saved ({code})',
  mappingChangedOnDisk: 'not saved: the file changed on disk since the page read it',
  // An export file that could not be written.
  exportFailed: 'The file could not be written',
} as const satisfies Record<string, Entry>;

export type TextKey = keyof typeof textsEn;
export type Texts = Record<TextKey, Entry>;
