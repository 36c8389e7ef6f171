/**
 * The mapping spec: how one ERP file (CSV, XLSX, JSON, NDJSON, XML) becomes platform payloads.
 *
 * ```yaml
 * format: csv
 * csv: { encoding: windows-1251, delimiter: ";", decimalComma: true }
 * groupBy: "Номер заявки"
 * request:
 *   externalId: { column: "Номер заявки" }
 *   delivery.desiredDate: { column: "Дата поставки", date: "DD.MM.YYYY" }
 * items:
 *   quantity: { column: "Количество", integer: true }
 * ```
 *
 * Tables (CSV, XLSX) read fields from columns; trees (JSON, NDJSON, XML) from paths.
 *
 * Two kinds: `requests` (a `request:` section) and `confirmations` (`orderId:` and a
 * `confirmation:` section). The kind is explicit (`kind:`) or read from the shape. Target fields
 * are closed lists, so a typo in a key is reported at start, not discovered in a payload.
 */
import { z } from 'zod';
import { issueWithText } from './issue-text.js';
import { exportFormatSchema, type ExportFormat } from './export-format-schema.js';

export const MAPPING_KIND = { requests: 'requests', confirmations: 'confirmations' } as const;
export type MappingKind = (typeof MAPPING_KIND)[keyof typeof MAPPING_KIND];

/** The keys of a field that name where its value comes from: a field has exactly one. */
export const FIELD_SOURCES = ['column', 'path', 'const', 'template', 'parts', 'counter'] as const;

/** One part of a `parts:` field: a source, and the text around it when it has a value. */
const partSpecSchema = z
  .strictObject({
    column: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    /** Written before the value (`" ("`). */
    prefix: z.string().default(''),
    /** Written after the value (`")"`). */
    suffix: z.string().default(''),
    /** Left out when its value is this source's value (a column or a path), compared ignoring case and spaces at the ends. */
    unlessSameAs: z.string().min(1).optional(),
  })
  .superRefine((part, ctx) => {
    if ((part.column === undefined) === (part.path === undefined)) ctx.addIssue(issueWithText('needs exactly one of column or path', { key: 'partOneSource' }));
  });
export type PartSpec = z.infer<typeof partSpecSchema>;

/** One target field: where its value comes from and how it is cleaned. */
export const fieldSpecSchema = z
  .strictObject({
    /** CSV, XLSX: the header name of the source column. */
    column: z.string().min(1).optional(),
    /**
     * JSON: a dotted path inside the record (`customer.inn`, `lines.0.name`). XML: an element path
     * (`Контрагенты/Контрагент[Роль='Покупатель']/ИНН`, `БазоваяЕдиница/@Код`; `a | b`: the first that has a value).
     */
    path: z.string().min(1).optional(),
    /** A fixed value. */
    const: z.union([z.string(), z.number()]).optional(),
    /** Source values joined into one: `"{Серия}-{Номер}"` (columns for CSV, paths for JSON). */
    template: z.string().min(1).optional(),
    /**
     * `items.lineId` only: the line's position in its request (`"1"`, `"2"`, …), for exports that
     * carry no line number. Moving or removing a line in the ERP renumbers the lines after it.
     */
    counter: z.literal(true).optional(),
    /**
     * Several sources joined in order, each with the text written before (`prefix`) and after it
     * (`suffix`); a part whose source is empty is left out with its text, and so is a part whose
     * value is the same as `unlessSameAs`'s (a packaging named like the unit). Empty when the first
     * part is: `Футболка (Красный, XL)` from an item's name and its characteristic.
     */
    parts: z.array(partSpecSchema).min(1).optional(),
    /** Strip surrounding whitespace (NBSP and thin spaces included). Default true. */
    trim: z.boolean().default(true),
    upper: z.boolean().default(false),
    lower: z.boolean().default(false),
    /** Read as a number: spaces and thousands separators dropped, decimal comma per the format options. */
    number: z.boolean().default(false),
    /** Read as a whole number. */
    integer: z.boolean().default(false),
    /** Read as a date in this format (tokens DD MM YYYY YY); `YYYY-MM-DD` values always pass through. */
    date: z.string().min(1).optional(),
    /**
     * XML, with `date`: the latest of the dates the path reaches (every line's, say), not the first;
     * alternatives (`a | b`) are still tried in order. Default false.
     */
    latest: z.boolean().default(false),
    /**
     * Read one part out of a one-line address as 1C writes it (`123456, Москва г, Ленина ул, дом № 1`,
     * `г Москва, ул Ленина, д 1`): `city`, the city or else the settlement. Nothing recognisable reads
     * as empty, so `default:` applies.
     */
    fromAddress: z.enum(['city']).optional(),
    /** Used when the source value is empty. */
    default: z.union([z.string(), z.number()]).optional(),
    /** Replace values (`{ "шт.": "шт" }`); values not listed pass through unchanged. */
    map: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    /** An empty value is left out of the payload instead of being a problem. Default false. */
    optional: z.boolean().default(false),
  })
  .superRefine((field, ctx) => {
    const sources = FIELD_SOURCES.filter((k) => field[k] !== undefined);
    if (sources.length !== 1) {
      ctx.addIssue(
        issueWithText(
          `needs exactly one of column, path, const, template, parts or counter (has ${sources.length === 0 ? 'none' : sources.join(', ')})`,
          sources.length === 0 ? { key: 'fieldNoSource' } : { key: 'fieldSources', params: { has: sources.join(', ') } },
        ),
      );
    }
    if (field.latest && (field.date === undefined || field.path === undefined)) {
      ctx.addIssue(issueWithText('picks the latest of the dates a path reaches: it needs path and date', { key: 'latestNeeds' }, ['latest']));
    }
    if (field.upper && field.lower) ctx.addIssue(issueWithText('cannot be combined with upper', { key: 'lowerWithUpper' }, ['lower']));
    if (field.fromAddress !== undefined && (field.number || field.integer || field.date !== undefined)) {
      ctx.addIssue(
        issueWithText('reads text out of an address: it cannot be combined with number, integer or date', { key: 'fromAddressAlone' }, ['fromAddress']),
      );
    }
    if (field.date !== undefined && (field.number || field.integer)) {
      ctx.addIssue(issueWithText('cannot be combined with number or integer', { key: 'dateWithNumber' }, ['date']));
    }
  });
export type FieldSpec = z.infer<typeof fieldSpecSchema>;

const csvOptionsSchema = z.strictObject({
  /** `auto`: a BOM, else strict UTF-8 if the first 64 KiB are valid UTF-8, else windows-1251. Default auto. */
  encoding: z.enum(['utf-8', 'windows-1251', 'auto']).default('auto'),
  delimiter: z.string().length(1, 'must be one character').default(';'),
  quote: z.string().length(1, 'must be one character').default('"'),
  /** Numbers are written `1 234,50`. Default false (`1234.50`). */
  decimalComma: z.boolean().default(false),
});
export type CsvOptions = z.infer<typeof csvOptionsSchema>;

const jsonOptionsSchema = z.strictObject({
  /** Dotted path to the array of records (`data.requests`); default: the file is an array or one record. */
  path: z.string().min(1).optional(),
  encoding: z.enum(['utf-8', 'windows-1251', 'auto']).default('utf-8'),
  decimalComma: z.boolean().default(false),
});
export type JsonOptions = z.infer<typeof jsonOptionsSchema>;

export const xlsxOptionsSchema = z.strictObject({
  /** The sheet: its name (exact, else ignoring case), or its position from 1 in tab order, hidden sheets counted. Default: the first sheet. */
  sheet: z.union([z.string().min(1), z.number().int().positive()]).optional(),
  /**
   * The header row as the spreadsheet numbers it, or `auto`: the row (or two rows) holding the mapped
   * column names, among the first `headerSearchRows`. Default auto.
   */
  headerRow: z.union([z.literal('auto'), z.number().int().positive()]).default('auto'),
  /** With a fixed `headerRow`: 2 when the header spans that row and the one below. Default 1. */
  headerRows: z.union([z.literal(1), z.literal(2)]).default(1),
  /** How many rows from the top `auto` searches for the header. Default 30. */
  headerSearchRows: z.number().int().positive().max(1000).default(30),
  /** Numbers in text cells are written `1 234,50` (typed number cells are numbers already). Default false. */
  decimalComma: z.boolean().default(false),
  /** A workbook whose parts would inflate past this many bytes is refused unread (a zip bomb). Default 1 GiB. */
  maxUncompressedBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
});
export type XlsxOptions = z.infer<typeof xlsxOptionsSchema>;

const xmlOptionsSchema = z.strictObject({
  /** `auto`: a UTF-8 byte order mark, else the XML declaration's encoding (windows-1251 or UTF-8), else UTF-8; an explicit value overrides the declaration. Default auto. */
  encoding: z.enum(['utf-8', 'windows-1251', 'auto']).default('auto'),
  decimalComma: z.boolean().default(false),
  /** Elements nested deeper than this refuse the file (`XML_LIMIT_EXCEEDED`). Default 64. */
  maxDepth: z.number().int().positive().max(10_000).default(64),
  /** A text or attribute value longer than this refuses the file. Default 4 MiB. */
  maxTextBytes: z
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024),
  /** One record (`record:`) larger than this refuses the file. Default 16 MiB. */
  maxRecordBytes: z
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024),
  /** A zipped XML file (1C compresses its exchange messages) whose entry would inflate past this is refused unread. Default 1 GiB. */
  maxUncompressedBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
});
export type XmlOptions = z.infer<typeof xmlOptionsSchema>;
/** The XML reading options a mapping that sets none has. */
export const XML_DEFAULTS: XmlOptions = xmlOptionsSchema.parse({});

/** Which rows of a table are not data: blank rows, and totals rows (their first filled cell starts with one of `totals`). */
const skipRowsSchema = z.strictObject({
  /** Skip rows whose every cell is empty. Default true. */
  blank: z.boolean().default(true),
  /** Skip rows whose first non-empty cell starts with one of these words (any case). Default `Итого`, `Всего`. */
  totals: z.array(z.string().min(1)).default(['Итого', 'Всего']),
});
export type SkipRows = z.infer<typeof skipRowsSchema>;

export const INPUT_FORMATS = ['csv', 'json', 'ndjson', 'xlsx', 'xml'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];
/** Formats read as tables (rows of cells, fields from columns); the others are trees (fields from paths). */
export const TABLE_FORMATS: ReadonlySet<InputFormat> = new Set(['csv', 'xlsx']);

const commonKeys = {
  /**
   * A shipped base mapping this one adds to: `commerceml` (a CommerceML 2 document export),
   * `enterprisedata` (1C's purchase orders, `Документ.ЗаказПоставщику`, in its data synchronization messages).
   */
  preset: z
    .enum(['commerceml', 'enterprisedata'])
    .optional()
    .describe(
      "A shipped base mapping this one adds to: commerceml (a CommerceML 2 document export), enterprisedata (purchase orders in 1C's EnterpriseData exchange messages).",
    ),
  /** Default: by the file extension (`.json`, `.ndjson`/`.jsonl`, `.xlsx`/`.xlsm`, `.xml`, else csv). */
  format: z.enum(INPUT_FORMATS).optional().describe('csv, json, ndjson, xlsx or xml. Default: by the file extension.'),
  csv: csvOptionsSchema.default(csvOptionsSchema.parse({})).describe('Reading CSV: encoding, delimiter, quote, decimal comma.'),
  json: jsonOptionsSchema.default(jsonOptionsSchema.parse({})).describe('Reading JSON and NDJSON: the path of the records, encoding, decimal comma.'),
  xlsx: xlsxOptionsSchema.default(xlsxOptionsSchema.parse({})).describe('Reading XLSX: the sheet, the header row, decimal comma.'),
  xml: xmlOptionsSchema.default(xmlOptionsSchema.parse({})).describe('Reading XML: encoding, decimal comma, size and depth limits.'),
  /** XML: the element path of one request (or confirmation), from the root (`КоммерческаяИнформация/Документ`). */
  record: z.string().min(1).optional().describe('XML: the element path of one request (or confirmation), from the root.'),
  /**
   * XML: the path of its lines inside the record (`Товары/Товар`), or a list of paths whose lines
   * are all read, in the list's order (goods, then services: `[Товары/Строка, Услуги/Строка]`).
   */
  lines: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .optional()
    .describe("XML: the path of its lines inside the record, or a list of paths whose lines are all read, in the list's order."),
  /** CSV, XLSX: the column whose value groups adjacent rows into one request (or order). */
  groupBy: z.string().min(1).optional().describe('CSV, XLSX: the column whose value groups adjacent rows into one request (or order).'),
  /**
   * CSV, XLSX: a blank cell of these columns takes the value above it, within one request (`true`:
   * the group column and every request-level column). A grouped report writes the document number
   * once, above its lines. Default: off.
   */
  fillDown: z
    .union([z.boolean(), z.array(z.string().min(1)).min(1)])
    .default(false)
    .describe('CSV, XLSX: a blank cell of these columns (true: the group and request-level columns) takes the value above it. Default false.'),
  /** CSV, XLSX: rows that are not data. Default: blank rows and totals rows (`Итого`, `Всего`). */
  skipRows: skipRowsSchema.default(skipRowsSchema.parse({})).describe('CSV, XLSX: rows that are not data. Default: blank rows and totals rows.'),
  /** How results are written back for this flow (default: CSV in the input's encoding and delimiter). */
  acknowledgements: z.unknown().optional(),
};

const f = fieldSpecSchema;
const optF = fieldSpecSchema.optional();

/**
 * What identifies a document in its source system, apart from the number the buyer sees: 1C's
 * `Ссылка` (a UUID that never changes), where `externalId` may be a number 1C reuses every year
 * and changes when it renumbers. A mapping without it keys each request by its externalId.
 */
const documentSchema = z
  .strictObject({
    /** The document's identity in its source system, for ever: the idempotency key and "have we seen it" are decided by it. */
    id: f.describe("The document's identity in its source system, for ever (1C: КлючевыеСвойства/Ссылка; a GUID column)."),
    /** The number the buyer sees (1C: `КлючевыеСвойства/Номер`); shown on the console, and recorded anew when the document is renumbered. */
    number: optF.describe('The number the buyer sees; shown on the console and recorded anew when the document is renumbered.'),
    /** The document's own date, shown beside its number. */
    date: optF.describe("The document's own date, shown beside its number."),
  })
  .describe('What identifies a document in its source system, apart from the number the buyer sees. Default: externalId.');

/**
 * XML: the elements that withdraw a document (1C's `УдалениеОбъекта`: an order unposted or deleted
 * after it was sent), read in the same pass as the records. One whose `id` is empty withdraws
 * something else (1C deletes many kinds of objects) and is read past.
 */
const withdrawalsSchema = z
  .strictObject({
    /** The element path of one withdrawal, from the root (`Message/Body/УдалениеОбъекта`). */
    record: z.string().min(1),
    /** The withdrawn document's identity, as `document.id` reads it from a record. */
    id: f,
  })
  .describe("XML: the elements that withdraw a document (1C: УдалениеОбъекта), and where the withdrawn document's identity is.");

export const requestsMappingSchema = z.strictObject({
  kind: z.literal(MAPPING_KIND.requests).optional(),
  ...commonKeys,
  document: documentSchema.optional(),
  withdrawals: withdrawalsSchema.optional(),
  request: z
    .strictObject({
      externalId: f,
      'customer.inn': f,
      'customer.name': f,
      'contact.name': f,
      'contact.phone': optF,
      'contact.email': optF,
      'delivery.city': f,
      'delivery.address': f,
      'delivery.desiredDate': f,
      comment: optF,
    })
    .describe('The request: where each of its fields comes from.'),
  items: z
    .strictObject({
      /** JSON: path of the array of lines inside the record. */
      path: z.string().min(1).optional(),
      lineId: f,
      name: f,
      quantity: f,
      unit: f,
      comment: optF,
    })
    .describe('The request lines: where each of their fields comes from.'),
});

export const confirmationsMappingSchema = z.strictObject({
  kind: z.literal(MAPPING_KIND.confirmations).optional(),
  ...commonKeys,
  /** The order being confirmed (`ORD-2026-000123`): the `<order_id>` path segment. */
  orderId: f.describe('The platform order being confirmed (ORD-2026-000123): where it comes from.'),
  confirmation: z
    .strictObject({
      supplierOrderId: f,
      readyToShipDate: f,
      comment: optF,
    })
    .describe('The confirmation: where each of its fields comes from.'),
  items: z
    .strictObject({
      path: z.string().min(1).optional(),
      lineId: f,
      confirmedQuantity: f,
      price: f,
      currency: f,
    })
    .describe('The confirmed lines: where each of their fields comes from.'),
});

type RequestsRaw = z.infer<typeof requestsMappingSchema>;
type ConfirmationsRaw = z.infer<typeof confirmationsMappingSchema>;

interface SpecCommon {
  /** The mapping file, for messages. */
  file: string;
  /** Resolved from `format:` or, when absent, the input file's extension at read time. */
  format: InputFormat | undefined;
  csv: CsvOptions;
  json: JsonOptions;
  xlsx: XlsxOptions;
  xml: XmlOptions;
  /** XML: the record path, and the paths of its lines (all read, in order). */
  record: string | undefined;
  lines: readonly string[] | undefined;
  groupBy: string | undefined;
  fillDown: boolean | string[];
  skipRows: SkipRows;
  /** Always set: the section as written, or the default. */
  acknowledgements: ExportFormat;
}

/** Field specs by target field name; items carry the JSON `path` of the lines array apart. */
export type FieldSpecs = Record<string, FieldSpec>;

/** `document:`: a document's identity (`id`), and the number and date the buyer sees. */
export interface DocumentSpec {
  id: FieldSpec;
  number: FieldSpec | undefined;
  date: FieldSpec | undefined;
}

/** `withdrawals:` (XML): the elements that withdraw a document, and its identity in them. */
export interface WithdrawalsSpec {
  record: string;
  id: FieldSpec;
}

export type RequestsMappingSpec = SpecCommon & {
  kind: 'requests';
  header: FieldSpecs;
  items: FieldSpecs;
  itemsPath: string | undefined;
  /** Set when documents have an identity of their own (`document.id`); requests are then keyed by it. */
  document: DocumentSpec | undefined;
  withdrawals: WithdrawalsSpec | undefined;
};
export type ConfirmationsMappingSpec = SpecCommon & {
  kind: 'confirmations';
  orderId: FieldSpec;
  header: FieldSpecs;
  items: FieldSpecs;
  itemsPath: string | undefined;
};
/** A validated mapping, with defaults applied. */
export type MappingSpec = RequestsMappingSpec | ConfirmationsMappingSpec;

/** Target fields whose payload type is a number. */
export const NUMERIC_FIELDS: ReadonlySet<string> = new Set(['quantity', 'confirmedQuantity', 'price']);
/** Target fields that hold a date (`YYYY-MM-DD`). */
export const DATE_FIELDS: ReadonlySet<string> = new Set(['delivery.desiredDate', 'readyToShipDate']);

function stripUndefined(specs: Record<string, FieldSpec | string | undefined>): FieldSpecs {
  const out: FieldSpecs = {};
  for (const [key, value] of Object.entries(specs)) if (value !== undefined && typeof value !== 'string') out[key] = value;
  return out;
}

/**
 * The default `acknowledgements:` for a mapping: the input's format, encoding and delimiter. A flow
 * that reads workbooks (`format: xlsx`) is answered with workbooks, which 1C loads the same way.
 */
export function defaultAcknowledgements(raw: { format?: string | undefined; csv: CsvOptions; json: JsonOptions }): unknown {
  if (raw.format === 'xlsx') return { format: 'xlsx', fileName: 'ack-{externalId}-{id}.xlsx' };
  if (raw.format === 'json' || raw.format === 'ndjson' || raw.format === 'xml') {
    return { format: 'json', fileName: 'ack-{externalId}-{id}.json' };
  }
  const encoding = raw.csv.encoding === 'auto' ? 'utf-8' : raw.csv.encoding;
  return { format: 'csv', csv: { encoding, delimiter: raw.csv.delimiter }, fileName: 'ack-{externalId}-{id}.csv' };
}

/** What both kinds of spec share: the file, its reading options, grouping, acknowledgements and lines. */
function commonSpec(file: string, raw: RequestsRaw | ConfirmationsRaw, acknowledgements: ExportFormat) {
  const { path: itemsPath, ...items } = raw.items;
  const { format, csv, json, xlsx, xml, record, groupBy, fillDown, skipRows } = raw;
  const lines = typeof raw.lines === 'string' ? [raw.lines] : raw.lines;
  return { file, format, csv, json, xlsx, xml, record, lines, groupBy, fillDown, skipRows, acknowledgements, items: stripUndefined(items), itemsPath };
}

export function toRequestsSpec(file: string, raw: RequestsRaw, acknowledgements: ExportFormat): RequestsMappingSpec {
  const document = raw.document && { id: raw.document.id, number: raw.document.number, date: raw.document.date };
  return {
    kind: 'requests',
    ...commonSpec(file, raw, acknowledgements),
    header: stripUndefined(raw.request),
    document,
    withdrawals: raw.withdrawals,
  };
}

export function toConfirmationsSpec(file: string, raw: ConfirmationsRaw, acknowledgements: ExportFormat): ConfirmationsMappingSpec {
  return {
    kind: 'confirmations',
    ...commonSpec(file, raw, acknowledgements),
    orderId: raw.orderId,
    header: stripUndefined(raw.confirmation),
  };
}

export { exportFormatSchema };
