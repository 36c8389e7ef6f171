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

export const columnSchema = z.strictObject({
  /** Field of the exported record (`orderId`, `status`, `eventDate`, `externalId`, `reasons`, …). */
  field: z.string().min(1),
  /** Format a timestamp or date field, with tokens YYYY MM DD HH mm ss. */
  date: z.string().min(1).optional(),
  /** Time zone for `date`: `UTC`, `local`, or an offset like `+03:00`. Default `local`. */
  timeZone: z.string().default('local'),
  /** Replace values (`{ shipped: "Отгружен" }`). */
  map: z.record(z.string(), z.string()).optional(),
  /** Written when the field is missing or empty. */
  default: z.string().optional(),
});
export type ColumnSpec = z.infer<typeof columnSchema>;

export const exportFormatSchema = z.strictObject({
  format: z.enum(['csv', 'json']).default('csv'),
  csv: z
    .strictObject({
      encoding: z.enum(['utf-8', 'utf-8-bom', 'windows-1251']).default('utf-8'),
      delimiter: z.string().min(1).max(1).default(';'),
      /** Write a header row. Default true. */
      header: z.boolean().default(true),
      lineEnding: z.enum(['crlf', 'lf']).default('crlf'),
    })
    .default({ encoding: 'utf-8', delimiter: ';', header: true, lineEnding: 'crlf' }),
  json: z
    .strictObject({
      encoding: z.enum(['utf-8', 'windows-1251']).default('utf-8'),
    })
    .default({ encoding: 'utf-8' }),
  /** File name template: {timestamp} {date} {seq} {eventId} {orderId} {externalId} {flow} {id}. */
  fileName: z.string().min(1),
  /** Output columns in order: header name → column. Default: every field of the record. */
  columns: z.record(z.string(), columnSchema).optional(),
});
export type ExportFormat = z.infer<typeof exportFormatSchema>;
