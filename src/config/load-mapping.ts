/**
 * Loading a mapping file: YAML → kind (explicit or by shape) → zod → cross-field checks.
 * Every mistake names the mapping file and the key (`items.quantity.integr: unknown key`), all at
 * once, as `MAPPING_INVALID`.
 */
import type { z } from 'zod';
import { exportFormatSchema } from './export-format-schema.js';
import { configError, mappingNamedAt, namedAtText, parseYamlSource, readYamlSource, type ConfigProblem, type YamlSource } from './load-config.js';
import { issueProblems } from './key-problems.js';
import { ConnectorError, isConnectorError } from '../errors.js';
import {
  confirmationsMappingSchema,
  defaultAcknowledgements,
  requestsMappingSchema,
  toConfirmationsSpec,
  toRequestsSpec,
  MAPPING_KIND,
  FIELD_SOURCES,
  type FieldSpec,
  type MappingKind,
  type MappingSpec,
} from './mapping-schema.js';
import { checkDateFormat } from './date-format.js';
import { columnsOf, formatOfSpec, usesColumns, usesPaths } from './mapping-sources.js';
import { TABLE_FORMATS } from './mapping-schema.js';
import { parseXmlPath, type XmlPathRole } from './xml-path.js';
import { applyPreset } from './presets/index.js';

/**
 * Read and validate a mapping file. Throws `MAPPING_INVALID` (or `CONFIG_NOT_FOUND`) naming the
 * file and keys, each unknown key with its line, column and the nearest known key.
 */
export function loadMappingSpec(file: string): MappingSpec {
  const source = readYamlSource(file, 'mapping');
  return parseMappingSpec(source.data, file, source);
}

/**
 * The mapping of a flow (or of the export section) of a loaded config: a file that cannot be read
 * also names the key and the line of the config that point to it.
 */
export function loadMappingOf(holder: { mapping: string }): MappingSpec {
  try {
    return loadMappingSpec(holder.mapping);
  } catch (error) {
    if (!isConnectorError(error, 'CONFIG_NOT_FOUND')) throw error;
    const at = mappingNamedAt(holder);
    throw new ConnectorError('CONFIG_NOT_FOUND', `${error.message}${namedAtText(at)}`, {
      cause: error,
      details: { ...error.details, ...(at === undefined ? {} : { namedBy: at }) },
      ...(error.text === undefined ? {} : { text: error.text }),
    });
  }
}

/**
 * A mapping from text (the console's editor) read exactly as `loadMappingSpec` reads a file: the
 * same size cap, YAML checks (a syntax error carries its `line` and `column`) and validation.
 * `file` names it in messages. Throws `MAPPING_INVALID`.
 */
export function parseMappingText(text: string, file: string): MappingSpec {
  const source = parseYamlSource(Buffer.from(text, 'utf8'), file, 'mapping');
  return parseMappingSpec(source.data, file, source);
}

/** Validate already-parsed mapping data (tests and `check` use it too); `source` gives the keys' places. */
export function parseMappingSpec(raw: unknown, file: string, source?: YamlSource): MappingSpec {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw configError(file, [{ path: '', message: 'must be a YAML mapping (key: value pairs)', text: { key: 'notAMapping' } }], 'MAPPING_INVALID');
  }
  const record = applyPreset(raw as Record<string, unknown>);
  const kind = detectKind(record);
  if (kind === undefined) {
    throw configError(
      file,
      [
        {
          path: 'kind',
          message: 'cannot tell the kind: add `kind: requests` or `kind: confirmations`, a `request:` section or `orderId:` and `confirmation:`',
          text: { key: 'kindUnknown' },
        },
      ],
      'MAPPING_INVALID',
    );
  }
  const problems: ConfigProblem[] = [];
  const spec = kind === MAPPING_KIND.requests ? parseRequests(record, file, problems, source) : parseConfirmations(record, file, problems, source);
  if (spec) problems.push(...crossCheck(spec));
  if (problems.length > 0 || !spec) throw configError(file, problems, 'MAPPING_INVALID');
  return spec;
}

function detectKind(raw: Record<string, unknown>): MappingKind | undefined {
  if (raw.kind === MAPPING_KIND.requests || raw.kind === MAPPING_KIND.confirmations) return raw.kind;
  if (raw.kind !== undefined) return 'request' in raw ? MAPPING_KIND.requests : 'confirmation' in raw ? MAPPING_KIND.confirmations : undefined;
  if ('request' in raw) return MAPPING_KIND.requests;
  if ('confirmation' in raw || 'orderId' in raw) return MAPPING_KIND.confirmations;
  return undefined;
}

function parseRequests(raw: Record<string, unknown>, file: string, problems: ConfigProblem[], source?: YamlSource): MappingSpec | undefined {
  const parsed = requestsMappingSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push(...fieldProblems(parsed.error.issues, { schema: requestsMappingSchema, data: raw, source }));
    return undefined;
  }
  const ack = parseAcknowledgements(parsed.data.acknowledgements, parsed.data, problems, source);
  return ack && toRequestsSpec(file, parsed.data, ack);
}

function parseConfirmations(raw: Record<string, unknown>, file: string, problems: ConfigProblem[], source?: YamlSource): MappingSpec | undefined {
  const parsed = confirmationsMappingSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push(...fieldProblems(parsed.error.issues, { schema: confirmationsMappingSchema, data: raw, source }));
    return undefined;
  }
  const ack = parseAcknowledgements(parsed.data.acknowledgements, parsed.data, problems, source);
  return ack && toConfirmationsSpec(file, parsed.data, ack);
}

function parseAcknowledgements(
  section: unknown,
  raw: Parameters<typeof defaultAcknowledgements>[0],
  problems: ConfigProblem[],
  source?: YamlSource,
): z.infer<typeof exportFormatSchema> | undefined {
  const data = section ?? defaultAcknowledgements(raw);
  const parsed = exportFormatSchema.safeParse(data);
  if (!parsed.success) {
    problems.push(...issueProblems(parsed.error.issues, { schema: exportFormatSchema, data, source, at: ['acknowledgements'] }));
    return undefined;
  }
  return parsed.data;
}

/**
 * A mapping's issues as `issueProblems` words them (each unknown key with its place and the
 * nearest known key), less a field's "needs exactly one of column, path, …" when a misspelt key of
 * that very field is one of those sources (`colum`): the typo is the one mistake, and says it.
 */
function fieldProblems(issues: readonly z.core.$ZodIssue[], context: Parameters<typeof issueProblems>[1]): ConfigProblem[] {
  const problems = issueProblems(issues, context);
  const misspeltSource = new Set(
    problems.flatMap((p) => {
      const near = p.text?.key === 'unknownKeyNear' ? p.text.params?.suggestion : undefined;
      return typeof near === 'string' && (FIELD_SOURCES as readonly string[]).includes(near) ? [p.path.slice(0, p.path.lastIndexOf('.'))] : [];
    }),
  );
  return problems.filter((p) => !(p.message.startsWith('needs exactly one of') && misspeltSource.has(p.path)));
}

/** Checks zod cannot express per field: sources that fit the format, date formats, XML paths, grouping. */
function crossCheck(spec: MappingSpec): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const all = fieldsOfSpec(spec);
  const format = formatOfSpec(spec);
  const table = format !== undefined && TABLE_FORMATS.has(format);
  const tree = format !== undefined && !table;
  const name = format?.toUpperCase() ?? '';
  const readsColumns = (path: string): ConfigProblem => ({
    path,
    message: `a ${name} mapping reads columns: use column`,
    text: { key: 'readsColumnsUseColumn', params: { format: name } },
  });
  const readsPaths = (path: string): ConfigProblem => ({
    path,
    message: `a ${name} mapping reads paths: use path`,
    text: { key: 'readsPathsUsePath', params: { format: name } },
  });
  const onlyXml = (path: string): ConfigProblem => ({ path, message: 'only applies to XML', text: { key: 'onlyXml' } });
  const onlyTables = (path: string): ConfigProblem => ({ path, message: 'only applies to tables (CSV, XLSX)', text: { key: 'onlyTables' } });
  const checkXmlPath = (key: string, path: string, role: XmlPathRole = 'field') => {
    const parsed = parseXmlPath(path, role);
    if (typeof parsed === 'string') problems.push({ path: key, message: parsed, text: { key: 'xmlPathInvalid', params: { path, said: parsed } } });
  };
  for (const [key, field] of all) {
    if (field.date !== undefined) {
      const reason = checkDateFormat(field.date);
      if (reason) problems.push({ path: `${key}.date`, ...reason });
    }
    if (field.counter !== undefined && key !== 'items.lineId')
      problems.push({ path: `${key}.counter`, message: 'only items.lineId can be a counter', text: { key: 'counterOnlyLineId' } });
    if (table && field.path !== undefined) problems.push(readsColumns(`${key}.path`));
    if (tree && field.column !== undefined) problems.push(readsPaths(`${key}.column`));
    if (format === 'xml' && field.path !== undefined) checkXmlPath(`${key}.path`, field.path);
    if (format === 'xml' && field.template !== undefined) {
      for (const match of field.template.matchAll(/\{([^{}]+)\}/g)) checkXmlPath(`${key}.template`, match[1]!);
    }
    field.parts?.forEach((part, index) => {
      const at = `${key}.parts.${index}`;
      if (table && part.path !== undefined) problems.push(readsColumns(`${at}.path`));
      if (tree && part.column !== undefined) problems.push(readsPaths(`${at}.column`));
      if (format === 'xml' && part.path !== undefined) checkXmlPath(`${at}.path`, part.path);
      if (format === 'xml' && part.unlessSameAs !== undefined) checkXmlPath(`${at}.unlessSameAs`, part.unlessSameAs);
    });
    if (field.latest && format !== undefined && format !== 'xml') problems.push(onlyXml(`${key}.latest`));
  }
  if (spec.kind === 'requests' && spec.withdrawals !== undefined) {
    if (format === 'xml') checkXmlPath('withdrawals.record', spec.withdrawals.record, 'record');
    else if (format !== undefined) problems.push(onlyXml('withdrawals'));
    if (spec.document === undefined) {
      problems.push({
        path: 'withdrawals',
        message: 'needs document.id: a withdrawal names the document it withdraws by its identity',
        text: { key: 'withdrawalsNeedDocument' },
      });
    }
  }
  if (format === undefined && usesColumns(spec) && usesPaths(spec)) {
    problems.push({ path: 'format', message: 'mixes column and path sources: set format', text: { key: 'mixedSources' } });
  }
  if (tree) {
    if (spec.groupBy !== undefined) problems.push(onlyTables('groupBy'));
    if (spec.fillDown !== false) problems.push(onlyTables('fillDown'));
  }
  if (format === 'xml') {
    if (spec.record === undefined) {
      problems.push({ path: 'record', message: 'is required for XML: the element path of one request, from the root', text: { key: 'recordRequiredXml' } });
    } else checkXmlPath('record', spec.record, 'record');
    if (spec.lines === undefined) {
      problems.push({ path: 'lines', message: 'is required for XML: the path of the lines inside the record', text: { key: 'linesRequiredXml' } });
    } else spec.lines.forEach((lines, index) => checkXmlPath(spec.lines!.length === 1 ? 'lines' : `lines.${index}`, lines, 'lines'));
  } else if (format !== undefined) {
    if (spec.record !== undefined) problems.push(onlyXml('record'));
    if (spec.lines !== undefined) problems.push(onlyXml('lines'));
  }
  if (table || (format === undefined && usesColumns(spec))) problems.push(...groupingProblems(spec));
  return problems;
}

/** Every field spec of the mapping, by its key (`request.customer.inn`, `items.quantity`, `document.id`). */
function fieldsOfSpec(spec: MappingSpec): [string, FieldSpec][] {
  const section = spec.kind === 'requests' ? 'request' : 'confirmation';
  const all: [string, FieldSpec][] = [
    ...Object.entries(spec.header).map(([k, v]): [string, FieldSpec] => [`${section}.${k}`, v]),
    ...Object.entries(spec.items).map(([k, v]): [string, FieldSpec] => [`items.${k}`, v]),
  ];
  if (spec.kind === 'confirmations') all.push(['orderId', spec.orderId]);
  if (spec.kind === 'requests') {
    for (const [name, field] of Object.entries(spec.document ?? {})) if (field !== undefined) all.push([`document.${name}`, field]);
    if (spec.withdrawals) all.push(['withdrawals.id', spec.withdrawals.id]);
  }
  return all;
}

/** A table's grouping: a group column unless the key is read from one, fill-down only of the request's own columns. */
function groupingProblems(spec: MappingSpec): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const keyField = spec.kind === 'requests' ? spec.header.externalId : spec.orderId;
  if (spec.groupBy === undefined && keyField?.column === undefined) {
    problems.push({ path: 'groupBy', message: 'is required when the request key is not read from one column', text: { key: 'groupByRequired' } });
  }
  if (Array.isArray(spec.fillDown)) {
    // Fill-down is for what a grouped report writes once per request: the group and the request's columns.
    const requestLevel = new Set(columnsOf(spec).flatMap(({ column, key }) => (key.startsWith('items.') ? [] : [column])));
    spec.fillDown.forEach((column, index) => {
      if (!requestLevel.has(column)) {
        problems.push({
          path: `fillDown.${index}`,
          message: `"${column}" is not the group column or a request-level column this mapping reads`,
          text: { key: 'fillDownColumn', params: { column } },
        });
      }
    });
  }
  return problems;
}
