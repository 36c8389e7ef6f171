/**
 * The shape of an ERP import file, shared by the status export mapping
 * (`config/mappings/status-export.yaml`) and the `acknowledgements:` section of a flow mapping.
 *
 * ```yaml
 * format: csv
 * csv: { encoding: windows-1251, delimiter: ";" }
 * fileName: "order-status-{timestamp}-{seq}.csv"
 * columns:
 *   "Заказ": { field: orderId }
 *   "Дата": { field: eventDate, date: "DD.MM.YYYY HH:mm" }
 * ```
 */
import { z } from 'zod';

/** Placeholders a file name template may use. */
export const FILE_NAME_PLACEHOLDERS = ['timestamp', 'date', 'seq', 'id', 'eventId', 'orderId', 'externalId', 'flow'] as const;

/** `UTC` (or `Z`), `local` (the daemon's zone), or a fixed offset `+03:00`. */
export const TIME_ZONE_PATTERN = /^(UTC|Z|local|[+-](0\d|1[0-4]):[0-5]\d)$/;

export const columnSchema = z.strictObject({
  /** Field of the exported record (`orderId`, `status`, `eventDate`, `externalId`, `reasons`, …). */
  field: z.string().min(1),
  /** Format a timestamp or date field, with tokens YYYY MM DD HH mm ss. Default: the value as stored. */
  date: z.string().min(1).optional(),
  /** Time zone for `date`: `UTC`, `local`, or an offset like `+03:00`. Default `local`. */
  timeZone: z.string().regex(TIME_ZONE_PATTERN, 'must be UTC, local, or an offset like +03:00').default('local'),
  /** Replace values (`{ shipped: "Отгружен" }`); values not listed are written unchanged. Default: none. */
  map: z.record(z.string(), z.string()).optional(),
  /** Written when the field is missing or empty. Default: an empty cell. */
  default: z.string().optional(),
});
export type ColumnSpec = z.infer<typeof columnSchema>;

const fileNameSchema = z
  .string()
  .min(1)
  .superRefine((template, ctx) => {
    for (const match of template.matchAll(/\{([^}]*)\}/g)) {
      if (!(FILE_NAME_PLACEHOLDERS as readonly string[]).includes(match[1]!)) {
        ctx.addIssue({ code: 'custom', message: `unknown placeholder {${match[1]}}; use ${FILE_NAME_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}` });
      }
    }
  });

export const exportFormatSchema = z.strictObject({
  /** `csv` or `json`. Default csv. */
  format: z.enum(['csv', 'json']).default('csv'),
  csv: z
    .strictObject({
      /** `utf-8`, `utf-8-bom` or `windows-1251` (characters 1251 lacks are written as `?`). Default utf-8. */
      encoding: z.enum(['utf-8', 'utf-8-bom', 'windows-1251']).default('utf-8'),
      /** One character. Default `;` (what 1C and a Russian Excel expect). */
      delimiter: z.string().min(1).max(1).default(';'),
      /** Write a header row. Default true. */
      header: z.boolean().default(true),
      /** Default crlf. */
      lineEnding: z.enum(['crlf', 'lf']).default('crlf'),
      /**
       * Make cells that start with `=`, `+`, `-`, `@`, tab or CR inert for a spreadsheet by putting
       * a `'` in front (OWASP's CSV-injection rule). For files people open in Excel. Default false:
       * the ERP reads the values, and `-5` is a legitimate amount there, not a formula.
       */
      escapeFormulas: z.boolean().default(false),
    })
    .default({ encoding: 'utf-8', delimiter: ';', header: true, lineEnding: 'crlf', escapeFormulas: false }),
  json: z
    .strictObject({
      /** Default utf-8. */
      encoding: z.enum(['utf-8', 'windows-1251']).default('utf-8'),
    })
    .default({ encoding: 'utf-8' }),
  /**
   * File name template: {timestamp} (local YYYYMMDDHHmmss) {date} (local YYYYMMDD) {seq} (export row
   * number, 6 digits) {id} (export row number) {eventId} {orderId} {externalId} {flow}. Required.
   */
  fileName: fileNameSchema,
  /** Output columns in order: header name → column. Default: every field of the record. */
  columns: z.record(z.string(), columnSchema).optional(),
});
export type ExportFormat = z.infer<typeof exportFormatSchema>;
