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
 *
 * A workbook (`format: xlsx`, one sheet that 1C's "load from a spreadsheet" reads) takes an
 * `xlsx:` section instead; a `csv:` or `json:` section beside it would be silently ignored, so it
 * is refused, as is an `xlsx:` section beside another format.
 */
import { z } from 'zod';
import { issueWithText } from './issue-text.js';

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
        const placeholders = FILE_NAME_PLACEHOLDERS.map((p) => `{${p}}`).join(' ');
        ctx.addIssue(
          issueWithText(`unknown placeholder {${match[1]}}; use ${placeholders}`, {
            key: 'unknownPlaceholder',
            params: { placeholder: `{${match[1]}}`, placeholders },
          }),
        );
      }
    }
  });

/** The formats an export file can take. */
export const EXPORT_FILE_FORMATS = ['csv', 'json', 'xlsx'] as const;
export type ExportFileFormat = (typeof EXPORT_FILE_FORMATS)[number];

const csvSectionSchema = z.strictObject({
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
});

const jsonSectionSchema = z.strictObject({
  /** Default utf-8. */
  encoding: z.enum(['utf-8', 'windows-1251']).default('utf-8'),
});

/** What Excel refuses in a sheet name (`[ ] : * ? / \`), and control characters. */
// eslint-disable-next-line no-control-regex
const SHEET_NAME_REFUSED = /[[\]:*?/\\\u0000-\u001f\u007f]/;

const xlsxSectionSchema = z.strictObject({
  /**
   * The sheet's name: 1 to 31 characters, none of `[ ] : * ? / \`, no `'` at either end, not
   * `History` (Excel's rules; Excel refuses to open a workbook that breaks them). Default `Sheet1`.
   */
  sheet: z
    .string()
    .min(1)
    .max(31)
    .refine((name) => !SHEET_NAME_REFUSED.test(name), 'must not hold [ ] : * ? / \\ or control characters')
    .refine((name) => !name.startsWith("'") && !name.endsWith("'"), "must not start or end with '")
    .refine((name) => name.toLowerCase() !== 'history', 'History is reserved by Excel')
    .default('Sheet1'),
  /** Write a header row (the column names, as text). Default true. */
  header: z.boolean().default(true),
});

/** What each format's own section holds, for the message that refuses it beside another format. */
const SECTION_KEYS = {
  csv: 'encoding, delimiter, header, lineEnding, escapeFormulas',
  json: 'encoding',
  xlsx: 'sheet, header',
} as const;

export const exportFormatSchema = z
  .strictObject({
    /** `csv`, `json` or `xlsx` (one sheet, typed cells). Default csv. */
    format: z.enum(EXPORT_FILE_FORMATS).default('csv').describe('csv, json or xlsx (one sheet, typed cells). Default csv.'),
    /** CSV (and, as before, accepted beside `format: json`). Defaults as below. */
    csv: csvSectionSchema.optional().describe('format csv: encoding, delimiter, header, line ending, formula escaping.'),
    json: jsonSectionSchema.optional().describe('format json: encoding.'),
    /** `format: xlsx` only. */
    xlsx: xlsxSectionSchema.optional().describe('format xlsx: sheet name, header row.'),
    /**
     * File name template: {timestamp} (local YYYYMMDDHHmmss) {date} (local YYYYMMDD) {seq} (export row
     * number, 6 digits) {id} (export row number) {eventId} {orderId} {externalId} {flow}. Required.
     */
    fileName: fileNameSchema.describe('File name template: {timestamp} {date} {seq} {id} {eventId} {orderId} {externalId} {flow}. Required.'),
    /** Output columns in order: header name → column. Default: every field of the record. */
    columns: z
      .record(z.string(), columnSchema)
      .optional()
      .describe('Output columns in order: header name → { field, date, timeZone, map, default }. Default: every field.'),
  })
  .superRefine((format, ctx) => {
    // A workbook has no encoding or delimiter: a csv or json section beside it would change nothing,
    // so it is refused rather than ignored (and an xlsx section beside csv or json likewise). A csv
    // section beside json was always accepted and ignored; it stays so, not to break a working config.
    for (const section of ['csv', 'json', 'xlsx'] as const) {
      if (format[section] === undefined || format.format === section || (format.format !== 'xlsx' && section !== 'xlsx')) continue;
      const message = `is for format ${section} (${SECTION_KEYS[section]}), and this file is ${format.format}: remove it (its own section is ${format.format}: ${SECTION_KEYS[format.format]})`;
      const params = { section, keys: SECTION_KEYS[section], format: format.format, own: SECTION_KEYS[format.format] };
      ctx.addIssue(issueWithText(message, { key: 'sectionOfOtherFormat', params }, [section]));
    }
  })
  .transform(({ csv, json, xlsx, ...rest }) => ({
    ...rest,
    csv: csv ?? csvSectionSchema.parse({}),
    json: json ?? jsonSectionSchema.parse({}),
    xlsx: xlsx ?? xlsxSectionSchema.parse({}),
  }));
export type ExportFormat = z.infer<typeof exportFormatSchema>;
