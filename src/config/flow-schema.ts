/** `flows[]`: each ERP folder the daemon serves, with its kind, mapping and results folder. */
import { z } from 'zod';
import { pathSchema, positiveMs, nonNegativeMs } from './common.js';
import { enterpriseDataSchema } from './enterprisedata-schema.js';

export const FLOW_KIND = { requests: 'requests', confirmations: 'confirmations' } as const;
export type FlowKind = (typeof FLOW_KIND)[keyof typeof FLOW_KIND];

/** How files in the inbox are watched and judged complete. */
export const flowIntakeSchema = z.strictObject({
  /** Use stat polling instead of inotify (SMB/NFS shares). Default false. */
  usePolling: z.boolean().default(false),
  /**
   * Where the inbox lives. `local`: a file's open, metadata (lstat, fstat), small read and renames
   * are synchronous calls, a few µs each; `network`: every call goes through the thread pool, so a
   * slow or hung share cannot stall the daemon. Default `auto`: `local` when the inbox's file system is a local one (ext4, xfs,
   * btrfs, zfs, tmpfs…) and `usePolling` is off (`src/intake/inbox-disk.ts`).
   */
  inboxDisk: z.enum(['auto', 'local', 'network']).default('auto'),
  /** Poll interval when `usePolling` is on. Default 1000 ms. */
  pollIntervalMs: positiveMs.default(1_000),
  /** Full rescan of the inbox (the truth; watcher events are only hints). Default every 30 s. */
  rescanIntervalMs: positiveMs.default(30_000),
  /** Size and mtime must stay unchanged this long before a file is taken. Default 2000 ms. */
  stableForMs: nonNegativeMs.default(2_000),
  /** A file must be at least this old (by mtime). Default 1000 ms. */
  minAgeMs: nonNegativeMs.default(1_000),
  /**
   * Wait for `<name>.done` / `<name>.ok` (`any`: either) before taking `<name>`; the stability
   * rules are then skipped and the marker is removed with the file. Default `none` (off).
   */
  doneMarker: z.enum(['none', 'done', 'ok', 'any']).default('none'),
  /**
   * Glob-like patterns (`*`, `?`) of file names to take. Default CSV, JSON, NDJSON, XLSX and XML, and
   * the spreadsheet formats the connector does not read (`.xls`, `.ods`, `.mxl`), so that such a file
   * is rejected with a report saying to save it as xlsx instead of lying in the inbox unnoticed.
   */
  include: z.array(z.string().min(1)).default(['*.csv', '*.json', '*.ndjson', '*.jsonl', '*.xlsx', '*.xlsm', '*.xml', '*.xls', '*.ods', '*.mxl']),
  /** Patterns of names never taken (temp files of the ERP). */
  exclude: z.array(z.string().min(1)).default(['*.tmp', '*.part', '~*', '.*']),
  /**
   * A zero-byte file is judged (FILE_EMPTY) once it is stable, as every file is (`stableForMs`,
   * `minAgeMs`), and no earlier than this long after its mtime. Default 0: at once. A site whose
   * ERP creates a file empty and writes it later than the stability wait sets a longer wait here
   * (or uses `doneMarker`).
   */
  emptyFileTimeoutMs: nonNegativeMs.default(0),
  /** Files larger than this are rejected unread. Default 200 MiB. */
  maxFileBytes: z
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  /** One bad request rejects the whole file (default: the good ones go through). */
  rejectWholeFile: z.boolean().default(false),
  /** Reject requests whose delivery.desiredDate is in the past. Default true. */
  rejectPastDates: z.boolean().default(true),
  /** Days to keep `archive/YYYY-MM-DD/` folders. Default 90. */
  archiveRetentionDays: z.number().int().positive().default(90),
});
export type FlowIntakeConfig = z.infer<typeof flowIntakeSchema>;

export const flowSchema = z.strictObject({
  /** Unique name; used in logs, metrics, the store and the CLI (`--flow`). */
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be lower-case letters, digits, - or _'),
  kind: z.enum([FLOW_KIND.requests, FLOW_KIND.confirmations]),
  /** Folder the ERP drops files into. `processing/`, `archive/` and `rejected/` live inside it. */
  inbox: pathSchema,
  /** The YAML mapping from the ERP's file to the platform payload. */
  mapping: pathSchema,
  /** Folder the acknowledgement files are written to (often the ERP's import folder). */
  results: pathSchema,
  /** Token for this flow, when it differs from `platform.token` (a supplier's token). */
  token: z.string().min(1).optional(),
  intake: flowIntakeSchema.default(flowIntakeSchema.parse({})),
  /**
   * The flow is a correspondent of 1C's data synchronization (EnterpriseData through a folder):
   * `inbox` is the exchange folder, only 1C's messages to `node` are taken from it (`intake.include`
   * is not used), and each is acknowledged there. Requests flows only; the mapping is usually
   * `preset: enterprisedata`.
   */
  enterpriseData: enterpriseDataSchema
    .optional()
    .describe("The flow is a correspondent of 1C's data synchronization through a folder (EnterpriseData): the two node codes entered in 1C."),
});
export type FlowConfig = z.infer<typeof flowSchema>;
