/**
 * One error class with a stable `code`, and the catalogue of codes.
 *
 * Tests, logs, error report files and the troubleshooting table (docs/troubleshooting.md) all match on `code`
 * (the way undici uses `UND_ERR_*` and fastify `FST_ERR_*`); the message is for people and may
 * change, the code may not.
 */

/** Every code the connector can report, with a one-line meaning (docs/troubleshooting.md explains each). */
export const ERROR_CODES = {
  // configuration and start-up
  CONFIG_INVALID: 'The YAML config fails validation; every problem is listed with its key path.',
  CONFIG_NOT_FOUND: 'The config file (or a file it points to) does not exist or cannot be read.',
  SECRET_UNAVAILABLE: 'A token or secret named by the config (env, file or systemd credential) is missing or empty.',
  MAPPING_INVALID: 'A mapping file fails validation; the problem names the mapping file and key.',

  // reading and mapping input files
  FILE_UNREADABLE: 'An input file cannot be read or decoded (encoding, truncation, broken CSV/JSON).',
  FILE_EMPTY: 'An input file stayed empty (zero bytes) once stable (and past flows[].intake.emptyFileTimeoutMs, 0 by default).',
  FILE_DUPLICATE: 'An input file with the same content (SHA-256) was already taken; it is not submitted again.',
  FILE_NOT_REGULAR: 'An inbox entry is not a regular file (a symlink, a device, a folder) or has an unsafe name.',
  FILE_TOO_LARGE: 'An input file is larger than flows[].intake.maxFileBytes; it was rejected unread.',
  FILE_CHANGED: 'An input file changed while it was read, after it was judged complete and claimed; nothing in it was submitted.',
  COLUMN_MISSING: 'A column named by the mapping is not in the file header.',
  FIELD_REQUIRED: 'A required field is empty.',
  FIELD_INVALID: 'A field has the wrong type or shape (number, date, e-mail, pattern).',
  INN_INVALID: 'customer.inn is not 10 or 12 digits with valid check digits.',
  DATE_IN_PAST: 'delivery.desiredDate lies in the past.',
  LINE_DUPLICATE: 'Two lines of one request share a lineId.',
  LINES_MISSING: 'A request has no lines.',
  EXTERNAL_ID_CONFLICT: 'The same externalId was recorded before with a different payload; not submitted.',
  MAPPING_FAILED: 'A row could not be mapped for another reason named in the message.',
  FILE_FORMAT_UNSUPPORTED:
    "An input file is in a format the connector does not read (an old .xls, an .ods, 1C's .mxl), or not in the format its flow's mapping reads; the message says what to save it as.",
  WORKBOOK_ENCRYPTED: 'A workbook is encrypted (it needs a password to open); it was not read. Save it again without a password.',
  WORKBOOK_LIMIT_EXCEEDED:
    'A workbook would inflate past xlsx.maxUncompressedBytes, holds too many parts, or a sheet declares more rows or columns than a spreadsheet can hold (a zip bomb or a damaged file); refused unread.',
  XML_MALFORMED: 'An XML file (or a part of a workbook) is not well-formed; the report names the line and column.',
  XML_DTD_REFUSED: 'An XML file (or a part of a workbook) carries a DOCTYPE; its entities are never fetched or expanded, and the file is refused.',
  XML_LIMIT_EXCEEDED:
    'An XML file nests elements deeper than xml.maxDepth, holds a text longer than xml.maxTextBytes, or one record larger than xml.maxRecordBytes.',
  XML_ENCODING_MISMATCH: "An XML file's bytes do not match the encoding its declaration (or its byte order mark) names.",

  // delivery to the platform
  PLATFORM_REJECTED: 'The platform refused the submission for good (a 4xx other than 401, 403, 408, 409 and 429); its problem details are kept.',
  PLATFORM_UNAUTHORIZED: 'The platform answered 401/403: the token is wrong or lacks rights. The flow pauses until it is fixed.',
  PLATFORM_UNAVAILABLE: 'The platform failed temporarily (408, 429, 5xx, connection error, timeout); the submission is retried.',
  PLATFORM_CONFLICT: 'The platform answered 409 for a duplicate externalId without naming the existing request; held for attention.',
  SUBMISSION_DEAD: 'A submission ran out of retries (attempt or age limit) and was dead-lettered.',

  // webhooks
  WEBHOOK_SIGNATURE_INVALID: 'A webhook had no X-Service-Signature, a malformed one, or one no configured secret produces.',
  WEBHOOK_BODY_INVALID: 'A webhook body is not JSON or does not match the event schema.',
  WEBHOOK_TOO_LARGE: 'A webhook body is larger than webhook.maxBodyBytes.',
  WEBHOOK_MEDIA_TYPE: 'A webhook was not sent as application/json.',
  WEBHOOK_FORBIDDEN_SOURCE: 'A webhook came from an address outside webhook.allowFrom.',
  WEBHOOK_STORE_FAILED: 'A signed, valid event could not be stored; answered 503 so the platform sends it again.',
  WEBHOOK_STOPPING: 'A webhook arrived while the listener was stopping; answered 503 so the platform sends it again.',
  WEBHOOK_INTERNAL_ERROR: 'The listener failed on a webhook for a reason of its own (a bug); answered 500 so the platform sends it again.',
  WEBHOOK_REQUEST_INVALID: 'A request to the webhook listener could not be parsed (a malformed request line or target); answered 400.',
  WEBHOOK_EVENT_CONFLICT: 'An eventId arrived again with a body different from the stored one; the first is kept, both hashes are logged.',

  // export to the ERP
  EXPORT_WRITE_FAILED: 'An acknowledgement or status file could not be written to the import folder; retried.',
  EXPORT_SET_ASIDE:
    'An export file could not be written for a permanent reason, even under a fallback name; its row was set aside with the reason and the rest of the channel goes on.',
  REPORT_WRITE_FAILED: 'The error report of a rejected or partly bad file could not be written; retried from the store.',

  // store
  STORE_FAILED: 'SQLite could not be opened, migrated or written.',
  INTERNAL_ERROR: 'A call the connector does not allow, or a state it should never reach (a bug); the message says which.',
  STATE_DIR_LOCKED: 'Another daemon holds the lock of this stateDir (the message names the lock file and its PID); this one does not start.',
  PORT_UNAVAILABLE:
    'A listener cannot bind its address: the port is in use by another program, needs privileges, or the host is not an address of this machine; the message names the config key that owns it.',

  // delivery (appended)
  PLATFORM_RESPONSE_INVALID: 'The platform answered 2xx with a body that breaks the contract; held for attention (it probably did the work).',

  // the operator console (appended)
  CONSOLE_LOGIN_REFUSED: 'A console login failed: a wrong password, no console.password configured, or too many failures from one address (429).',
  CONSOLE_REQUEST_REFUSED:
    'A console request was refused: no valid session, a missing or wrong CSRF token, a foreign Origin, or a Host header that is not this loopback listener.',
  CONSOLE_ACTION_FAILED: 'An operator action could not be carried out (the file left rejected/, the row is no longer in the state the action needs, …).',
  MAPPING_NOT_WRITABLE:
    "The console cannot write a flow's mapping file: its folder is read-only for the daemon (ProtectSystem=strict without ReadWritePaths=, or permissions); nothing was saved.",

  // zipped XML and 1C's data exchange (EnterpriseData over a folder; appended)
  ARCHIVE_ENCRYPTED:
    'A zipped XML file (an exchange message 1C compressed) is encrypted and no password is configured for it, or the configured one does not open it; it was not read.',
  ARCHIVE_LIMIT_EXCEEDED:
    'A zipped XML file does not hold exactly one entry, or would inflate past xml.maxUncompressedBytes (a zip bomb, or an entry that lies about its size); refused unread.',
  EXCHANGE_MESSAGE_INVALID:
    "A file named as 1C's exchange message is not one (no Message/Header/Confirmation, a format other than EnterpriseData, a message number that is not a number); rejected and not acknowledged, so 1C sends its changes again.",
  EXCHANGE_NODE_MISMATCH: "An exchange message is from or to other node codes than the flow's enterpriseData.peer and node; rejected and not acknowledged.",
  READER_FAULT:
    "The connector's own reader failed on a file for a reason of its own (a bug, not a problem of the data): the file is rejected with a report saying so, and the fault is logged with its stack. Report it with the file.",
  EXCHANGE_VERSION_UNSUPPORTED:
    'A data message is in an EnterpriseData version this flow does not read (enterpriseData.versions); rejected and not acknowledged.',

  // documents with an identity of their own (document.id; appended)
  DOCUMENT_CHANGED:
    'A document was changed in its source system after its request may have reached the platform; it is not sent again: /attention says what changed, to be changed on the platform by hand.',
  DOCUMENT_WITHDRAWN:
    'A document was unposted or deleted in its source system: a request still waiting is not sent; one that may have reached the platform is listed on /attention, to be cancelled there.',

  // the store (appended)
  STORE_DISK_FULL:
    "The state folder's disk is full: the store takes no writes until a checkpoint of its WAL gets through (space is back); reads go on, and writes go on by themselves once it does.",

  // the mapping thread (appended)
  MAP_THREAD_FAILED:
    'The thread that maps small CSV files off the event loop failed (an error, an exit, its heap limit, a file not mapped within 30 s): its files are mapped on the event loop instead, nothing is lost; after 3 failures in a row it is not started again until the daemon restarts.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * What a problem, a note or an error says, as a key of the console's catalogue and its parameters:
 * the console words it in its own language from these (`admin/console/texts-*.ts`), while `message`
 * keeps the English sentence the report files, the log and the CLI carry. Parameters are values of
 * the data (a column's name, a date, a count, a config key), never words of ours.
 */
export interface MessageText {
  key: string;
  params?: Record<string, string | number>;
}

export interface ConnectorErrorOptions {
  cause?: unknown;
  /** Structured context for logs and reports: file, row, field, externalId, eventId, … */
  details?: Record<string, unknown>;
  /** The message as a catalogue key and parameters, for the console (a reader's refusal, a decision's). */
  text?: MessageText;
}

/** The connector's one error type. `code` is stable; `message` says what failed and where. */
export class ConnectorError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  /** What the console says instead of `message`, in its language; undefined: the code's meaning. */
  readonly text: MessageText | undefined;

  constructor(code: ErrorCode, message: string, options: ConnectorErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConnectorError';
    this.code = code;
    this.details = options.details ?? {};
    this.text = options.text;
  }
}

export function isConnectorError(error: unknown, code?: ErrorCode): error is ConnectorError {
  return error instanceof ConnectorError && (code === undefined || error.code === code);
}

/** A message for any thrown value, for logs and reports. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
