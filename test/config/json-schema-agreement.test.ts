/**
 * The JSON Schemas (as ajv reads the committed files) and the daemon's own loaders give the same
 * verdict: each case starts from one valid file and changes it in exactly one way. A shape error
 * (an unknown key, a wrong type, a missing required key, a value outside an enum or a range) is
 * refused by both; what the schema accepts, the loader accepts.
 *
 * Allowed to pass the schema and still fail `check` (zod refinements and load-mapping's cross
 * checks, which compare values with each other or with the world; the `CHECK_ONLY` cases pin each):
 * - config: duplicate flow names; `export` required with `webhook`; a secret while
 *   `requireSignature`; cron expressions node-cron refuses; CIDR ranges; TLS key and certificate;
 *   a `${VAR}` the environment does not set;
 * - mappings: exactly one source per field; `upper` with `lower`; `date` with `number`; date format
 *   tokens; `counter` outside `items.lineId`; `path` in a table mapping and `column` in a tree one;
 *   XML paths; `record` and `lines` required for XML and refused for the others; `groupBy` required
 *   when the key is not one column, refused for trees; `fillDown` columns the mapping does not read;
 * - export formats: file name placeholders; a section beside another format; Excel's sheet names.
 * The one case the schema refuses and `check` accepts: a secret reference object at a key that is
 * not a secret (`loadConfig` resolves one anywhere; the schema offers it at the secrets only).
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { parseMappingSpec } from '../../src/config/load-mapping.js';
import type { JsonSchemaName } from '../../src/config/schema-files.js';
import { exportFormatSchema } from '../../src/config/export-format-schema.js';
import { isConnectorError } from '../../src/errors.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { schemaProblems } from '../helpers/schema-validator.js';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Case {
  name: string;
  change: (data: Data) => void;
}

const SHAPE = 'refused by both';
const ACCEPTED = 'accepted by both';
const CHECK_ONLY = 'passes the schema, refused by check';
const SCHEMA_ONLY = 'refused by the schema, accepted by check';

function verdicts(kind: string): { schema: boolean; check: boolean } {
  return {
    [SHAPE]: { schema: false, check: false },
    [ACCEPTED]: { schema: true, check: true },
    [CHECK_ONLY]: { schema: true, check: false },
    [SCHEMA_ONLY]: { schema: false, check: true },
  }[kind]!;
}

/** One describe block per kind of file: every case in each group gets the group's verdict from both. */
function agreement(
  title: string,
  schema: JsonSchemaName,
  valid: () => Data,
  check: (data: Data) => Promise<string[]> | string[],
  groups: Record<string, Case[]>,
) {
  describe(title, () => {
    for (const [kind, cases] of Object.entries(groups)) {
      it.each(cases)(`${kind}: $name`, async ({ change }) => {
        const data = valid();
        change(data);
        const schemaSays = schemaProblems(schema, data);
        const checkSays = await check(data);
        expect({ schema: schemaSays.length === 0, check: checkSays.length === 0 }, JSON.stringify({ schemaSays, checkSays }, null, 2)).toEqual(verdicts(kind));
      });
    }
  });
}

/** What the loader says, as problem lines; empty when it accepts. */
function problemsOf(load: () => unknown): string[] {
  try {
    load();
    return [];
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    return [error.message];
  }
}

// --- the config -------------------------------------------------------------------------------

const ENV = { PLATFORM_TOKEN: 'env-token', PLATFORM_URL: 'https://platform.example', LOG_LEVEL: 'debug' };

const validConfig = (): Data => ({
  stateDir: './var/state',
  platform: { baseUrl: 'http://127.0.0.1:8787', token: 'buyer-token', sourceSystem: 'erp-test' },
  flows: [{ name: 'requests', kind: 'requests', inbox: '/srv/erp/inbox', mapping: '/etc/pc/requests.yaml', results: '/srv/erp/results' }],
  webhook: { secrets: ['webhook-secret'] },
  export: { folder: '/srv/erp/import', mapping: '/etc/pc/status-export.yaml' },
});

/** `loadConfig` on the data written as YAML, as `check` loads the config first. */
async function checkConfig(data: Data): Promise<string[]> {
  return withTempDir((dir) => {
    const file = path.join(dir, 'connector.yaml');
    fs.writeFileSync(file, YAML.stringify(data));
    return problemsOf(() => loadConfig(file, ENV));
  });
}

agreement('config', 'config', validConfig, checkConfig, {
  [ACCEPTED]: [
    { name: 'the valid config', change: () => {} },
    { name: 'only the required keys', change: (c) => (delete c.stateDir, delete c.webhook, delete c.export) },
    { name: 'a secret as a reference (platform.token: { fromEnv })', change: (c) => (c.platform.token = { fromEnv: 'PLATFORM_TOKEN' }) },
    { name: 'a webhook secret as a reference', change: (c) => (c.webhook.secrets = [{ fromEnv: 'PLATFORM_TOKEN' }]) },
    { name: 'the console password as a reference', change: (c) => (c.console = { password: { fromEnv: 'PLATFORM_TOKEN' } }) },
    { name: 'a URL from the environment (${PLATFORM_URL})', change: (c) => (c.platform.baseUrl = '${PLATFORM_URL}') },
    { name: 'an enum from the environment (${LOG_LEVEL})', change: (c) => (c.log = { level: '${LOG_LEVEL}' }) },
    {
      name: 'every service key',
      change: (c) => Object.assign(c, { shutdownTimeoutMs: 5000, retentionDays: 30, metrics: { port: 0 }, sandbox: { enabled: true } }),
    },
  ],
  [SHAPE]: [
    { name: 'an unknown top-level key', change: (c) => (c.stateDirectory = './var') },
    { name: 'an unknown key in platform', change: (c) => (c.platform.tokn = 'x') },
    { name: 'an unknown key in flows[].intake', change: (c) => (c.flows[0].intake = { stableForSeconds: 2 }) },
    { name: 'a number as a string (delivery.concurrency: "4")', change: (c) => (c.delivery = { concurrency: '4' }) },
    { name: 'flows as a mapping, not a list', change: (c) => (c.flows = c.flows[0]) },
    { name: 'no flows at all (an empty list)', change: (c) => (c.flows = []) },
    { name: 'platform.baseUrl missing', change: (c) => delete c.platform.baseUrl },
    { name: 'flows[].inbox missing', change: (c) => delete c.flows[0].inbox },
    { name: 'platform missing', change: (c) => delete c.platform },
    { name: 'flows[].kind outside its enum', change: (c) => (c.flows[0].kind = 'orders') },
    { name: 'log.level outside its enum', change: (c) => (c.log = { level: 'verbose' }) },
    { name: 'export.mode outside its enum', change: (c) => (c.export.mode = 'daily') },
    { name: 'metrics.port out of range', change: (c) => (c.metrics = { port: 70000 }) },
    { name: 'webhook.retentionDays under its minimum', change: (c) => (c.webhook.retentionDays = 7) },
    { name: 'a fractional integer (delivery.leaseMs: 1.5)', change: (c) => (c.delivery = { leaseMs: 1.5 }) },
    { name: 'a flow name against its pattern', change: (c) => (c.flows[0].name = 'Main Flow') },
    { name: 'a secret reference with two keys', change: (c) => (c.platform.token = { fromEnv: 'PLATFORM_TOKEN', fromFile: '/x' }) },
    { name: 'an empty token', change: (c) => (c.platform.token = '') },
  ],
  [CHECK_ONLY]: [
    { name: 'two flows with one name', change: (c) => c.flows.push({ ...c.flows[0] }) },
    { name: 'a webhook without export', change: (c) => delete c.export },
    { name: 'requireSignature with no secret', change: (c) => (c.webhook.secrets = []) },
    { name: 'a cron expression node-cron refuses', change: (c) => (c.schedules = { summary: '61 * * * *' }) },
    { name: 'allowFrom that is no CIDR range', change: (c) => (c.webhook.allowFrom = ['10.0.0.0/33']) },
    { name: 'a ${VAR} the environment does not set', change: (c) => (c.platform.sourceSystem = '${NOT_SET}') },
  ],
  [SCHEMA_ONLY]: [{ name: 'a secret reference at a key that is no secret', change: (c) => (c.stateDir = { fromEnv: 'PLATFORM_TOKEN' }) }],
});

// --- flow mappings ----------------------------------------------------------------------------

const validRequests = (): Data => ({
  format: 'csv',
  csv: { encoding: 'windows-1251', delimiter: ';', decimalComma: true },
  groupBy: 'Номер',
  request: {
    externalId: { column: 'Номер' },
    'customer.inn': { column: 'ИНН' },
    'customer.name': { column: 'Покупатель' },
    'contact.name': { column: 'Контакт' },
    'contact.phone': { column: 'Телефон', optional: true },
    'delivery.city': { column: 'Город' },
    'delivery.address': { column: 'Адрес' },
    'delivery.desiredDate': { column: 'Дата', date: 'DD.MM.YYYY' },
  },
  items: {
    lineId: { column: 'Строка' },
    name: { column: 'Товар' },
    quantity: { column: 'Количество', number: true },
    unit: { column: 'Ед', map: { 'шт.': 'шт' } },
  },
  acknowledgements: { format: 'csv', csv: { encoding: 'windows-1251' }, fileName: 'ack-{externalId}-{id}.csv' },
});

const checkMapping = (data: Data) => problemsOf(() => parseMappingSpec(structuredClone(data), 'mapping.yaml'));

agreement('requests mapping', 'mapping-requests', validRequests, checkMapping, {
  [ACCEPTED]: [
    { name: 'the valid mapping', change: () => {} },
    { name: 'with kind: requests', change: (m) => (m.kind = 'requests') },
    { name: 'acknowledgements as xlsx', change: (m) => (m.acknowledgements = { format: 'xlsx', xlsx: { sheet: 'Ответы' }, fileName: 'ack-{id}.xlsx' }) },
    { name: 'fillDown: true', change: (m) => (m.fillDown = true) },
    { name: 'a JSON mapping of paths', change: (m) => toJsonPaths(m) },
  ],
  [SHAPE]: [
    { name: 'an unknown top-level key', change: (m) => (m.groupby = 'Номер') },
    { name: 'an unknown target field', change: (m) => (m.request['customer.kpp'] = { column: 'КПП' }) },
    { name: 'an unknown field option', change: (m) => (m.items.quantity = { column: 'Количество', integr: true }) },
    { name: 'a field as a bare string', change: (m) => (m.items.quantity = 'Количество') },
    { name: 'a boolean as a string (csv.decimalComma: "yes")', change: (m) => (m.csv.decimalComma = 'yes') },
    { name: 'a required field missing (customer.inn)', change: (m) => delete m.request['customer.inn'] },
    { name: 'items missing', change: (m) => delete m.items },
    { name: 'format outside its enum', change: (m) => (m.format = 'xls') },
    { name: 'csv.encoding outside its enum', change: (m) => (m.csv.encoding = 'cp1251') },
    { name: 'csv.delimiter of two characters', change: (m) => (m.csv.delimiter = ';;') },
    { name: 'kind of the other value', change: (m) => (m.kind = 'request') },
    { name: 'an unknown key in acknowledgements', change: (m) => (m.acknowledgements.folder = '/srv') },
    { name: 'acknowledgements.format outside its enum', change: (m) => (m.acknowledgements.format = 'xml') },
    { name: 'acknowledgements without fileName', change: (m) => delete m.acknowledgements.fileName },
    { name: 'an unknown preset', change: (m) => (m.preset = 'cml') },
  ],
  [CHECK_ONLY]: [
    { name: 'a field with no source', change: (m) => (m.request['delivery.city'] = { optional: true }) },
    { name: 'a field with two sources', change: (m) => (m.request['delivery.city'] = { column: 'Город', path: 'city' }) },
    { name: 'upper with lower', change: (m) => (m.request['customer.name'].upper = m.request['customer.name'].lower = true) },
    { name: 'date with number', change: (m) => (m.items.quantity.date = 'DD.MM.YYYY') },
    { name: 'a date format without MM', change: (m) => (m.request['delivery.desiredDate'].date = 'DD.YYYY') },
    { name: 'a counter outside items.lineId', change: (m) => (m.request.externalId = { counter: true }) },
    { name: 'a path in a CSV mapping', change: (m) => (m.request['delivery.city'] = { path: 'city' }) },
    { name: 'record in a CSV mapping', change: (m) => (m.record = 'Документ') },
    { name: 'XML without record and lines', change: (m) => (toJsonPaths(m), (m.format = 'xml')) },
    { name: 'groupBy missing when the key is a template', change: (m) => (delete m.groupBy, (m.request.externalId = { template: '{Серия}-{Номер}' })) },
    { name: 'groupBy in a JSON mapping', change: (m) => (toJsonPaths(m), (m.groupBy = 'number')) },
    { name: 'fillDown of a column the mapping does not read', change: (m) => (m.fillDown = ['Склад']) },
    { name: 'an unknown file name placeholder in acknowledgements', change: (m) => (m.acknowledgements.fileName = 'ack-{order}.csv') },
  ],
});

/** The mapping as a JSON one: every source a path, no CSV keys. */
function toJsonPaths(m: Data): void {
  m.format = 'json';
  delete m.csv;
  delete m.groupBy;
  for (const section of [m.request, m.items]) {
    for (const field of Object.values(section) as Data[]) {
      field.path = field.column;
      delete field.column;
    }
  }
  m.acknowledgements = { format: 'json', fileName: 'ack-{id}.json' };
}

const validPreset = (): Data => ({ preset: 'commerceml', request: { 'contact.name': { default: 'Отдел закупок' } } });

agreement('requests mapping with preset: commerceml', 'mapping-requests', validPreset, checkMapping, {
  [ACCEPTED]: [
    { name: 'the shipped shape: fields with options only', change: () => {} },
    { name: 'the preset alone', change: (m) => delete m.request },
    { name: 'a field of its own replacing the preset', change: (m) => (m.items = { unit: { const: 'шт' } }) },
    { name: 'xml options added', change: (m) => (m.xml = { encoding: 'windows-1251' }) },
  ],
  [SHAPE]: [
    { name: 'an unknown key', change: (m) => (m.presets = 'commerceml') },
    { name: 'an unknown target field', change: (m) => (m.request['customer.kpp'] = { path: 'КПП' }) },
    { name: 'a wrong type in a field', change: (m) => (m.request['contact.name'].default = ['Отдел']) },
  ],
});

const validConfirmations = (): Data => ({
  kind: 'confirmations',
  format: 'csv',
  groupBy: 'Заказ',
  orderId: { column: 'Заказ' },
  confirmation: { supplierOrderId: { column: 'Номер у поставщика' }, readyToShipDate: { column: 'Готов', date: 'DD.MM.YYYY' } },
  items: { lineId: { column: 'Строка' }, confirmedQuantity: { column: 'Количество' }, price: { column: 'Цена' }, currency: { const: 'RUB' } },
});

agreement('confirmations mapping', 'mapping-confirmations', validConfirmations, checkMapping, {
  [ACCEPTED]: [
    { name: 'the valid mapping', change: () => {} },
    { name: 'the kind told by its shape', change: (m) => delete m.kind },
  ],
  [SHAPE]: [
    { name: 'orderId missing', change: (m) => delete m.orderId },
    { name: 'a requests field in confirmation', change: (m) => (m.confirmation['customer.inn'] = { column: 'ИНН' }) },
    { name: 'a preset (commerceml is a requests preset)', change: (m) => (m.preset = 'commerceml') },
    { name: 'items.currency missing', change: (m) => delete m.items.currency },
  ],
});

// --- export formats ---------------------------------------------------------------------------

const validExport = (): Data => ({
  format: 'csv',
  csv: { encoding: 'windows-1251', delimiter: ';', lineEnding: 'crlf' },
  fileName: 'order-status-{timestamp}-{seq}.csv',
  columns: { Заказ: { field: 'orderId' }, Дата: { field: 'eventDate', date: 'DD.MM.YYYY HH:mm', timeZone: '+03:00' } },
});

/** As `check` reads the export mapping: the export format schema alone. */
const checkExport = (data: Data) => (exportFormatSchema.safeParse(data).error?.issues ?? []).map((issue) => issue.message);

for (const schema of ['status-export', 'acknowledgements'] as const) {
  agreement(`${schema} format`, schema, validExport, checkExport, {
    [ACCEPTED]: [
      { name: 'the valid format', change: () => {} },
      { name: 'xlsx', change: (e) => (delete e.csv, (e.format = 'xlsx'), (e.xlsx = { sheet: 'Статусы', header: false })) },
      { name: 'a csv section beside json (accepted, as before)', change: (e) => (e.format = 'json') },
    ],
    [SHAPE]: [
      { name: 'an unknown key', change: (e) => (e.folder = '/srv') },
      { name: 'fileName missing', change: (e) => delete e.fileName },
      { name: 'format outside its enum', change: (e) => (e.format = 'xml') },
      { name: 'a column without field', change: (e) => (e.columns.Заказ = { date: 'DD.MM.YYYY' }) },
      { name: 'a time zone that is no offset', change: (e) => (e.columns.Дата.timeZone = 'Moscow') },
      { name: 'a header as a string', change: (e) => (e.csv.header = 'yes') },
    ],
    [CHECK_ONLY]: [
      { name: 'an unknown file name placeholder', change: (e) => (e.fileName = 'status-{order}.csv') },
      { name: 'a csv section beside xlsx', change: (e) => (e.format = 'xlsx') },
      { name: 'a sheet name Excel refuses', change: (e) => (delete e.csv, (e.format = 'xlsx'), (e.xlsx = { sheet: 'a:b' })) },
    ],
  });
}
