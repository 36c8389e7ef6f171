/**
 * The fuzz targets: one per reader (CSV, JSON, NDJSON, XLSX as a zip and as the XML parts inside a
 * valid zip, XML/CommerceML, 1C's EnterpriseData messages) and one for `mapping suggest`. A target
 * turns bytes into what the connector makes of them, through the very entry point the intake (or
 * the command) uses, and sums it up as text, so that two readings of the same bytes can be compared.
 * Each has its committed corpus in `test/fuzz/<name>/` (seeds from the samples and fixtures, every
 * input that ever failed, hostile shapes) and a dictionary of its format's tokens.
 *
 * The shape is Jazzer.js's (`fuzz(data: Buffer)`), so that the same targets run under it on a
 * machine whose glibc its native part loads on (`engine.ts` says why it does not here).
 */
import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { decideMessage } from '../../src/exchange/decide-message.js';
import { loadMappingSpec, mapFile, type MappingSpec } from '../../src/mapping/index.js';
import { readMessageHeader } from '../../src/mapping/readers/enterprisedata-header.js';
import { XML_DEFAULTS } from '../../src/config/mapping-schema.js';
import { suggestMappingForFile } from '../../src/mapping/suggest/suggest-file.js';
import { formatSuggestionSummary } from '../../src/mapping/suggest/preview-suggestion.js';
import { translator } from '../../src/admin/console/i18n.js';
import { isConnectorError } from '../../src/errors.js';
import { memoryHandle } from './memory-handle.js';
import { READ_CHUNK_BYTES } from '../../src/shared/input-file.js';

export interface FuzzTarget {
  name: string;
  /** Whether its reader streams (its result must not change with the chunks the bytes arrive in). */
  streams: boolean;
  /** Tokens of its format, inserted and replaced by the mutator. */
  dictionary: readonly string[];
  /**
   * What the connector makes of `data`: the items (or the suggestion) summed up as text. Throws what
   * the entry point throws (a `ConnectorError` is an answer; anything else is a finding).
   */
  run(data: Buffer, split?: () => number): Promise<Outcome>;
}

/** One reading: its summary, and the error codes of the problems it reported (each must be a catalogue code). */
export interface Outcome {
  summary: string;
  codes: string[];
}

export const CORPUS_ROOT = path.resolve('test/fuzz');
const NOW = new Date('2026-11-26T00:00:00Z');
const mapping = (file: string): MappingSpec => loadMappingSpec(path.resolve('config/mappings', file));

/** The items of `mapFile` on `data`, as text. */
async function mapped(data: Buffer, name: string, spec: MappingSpec, split?: () => number): Promise<Outcome> {
  const lines: string[] = [];
  const codes: string[] = [];
  // Read in other chunks, a CSV is streamed however small: the check compares it with the whole read.
  const options = { now: NOW, rejectPastDates: true, archivePassword: 'секрет-123', ...(split ? { wholeUpTo: 0 } : {}) };
  // Read whole, a small file comes as the intake hands it on: the bytes its hash read (`OpenedInput.bytes`).
  const bytes = split === undefined && data.length <= READ_CHUNK_BYTES ? data : undefined;
  for await (const item of mapFile({ handle: memoryHandle(data, split), name, bytes }, spec, options)) {
    if (item.kind === 'submission') lines.push(`S ${item.submission.firstRow} ${JSON.stringify(item.submission.payload)}`);
    else if (item.kind === 'withdrawal') lines.push(`W ${item.withdrawal.row} ${item.withdrawal.documentId}`);
    else {
      codes.push(item.problem.code);
      lines.push(`P ${JSON.stringify(item.problem)}`);
    }
  }
  return { summary: lines.join('\n'), codes };
}

const CSV_TOKENS = [
  '"',
  '""',
  ';',
  ',',
  '\t',
  '\r\n',
  '\n',
  '\r',
  '\uFEFF',
  '\u00A0',
  '=',
  '+',
  '-',
  '@',
  '0',
  '1 234,50',
  '31.12.2030',
  'Номер заявки',
  'ИНН',
  '__proto__',
  'constructor',
];
const JSON_TOKENS = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  'null',
  'true',
  '1e309',
  '-0',
  '\\u0000',
  '\\ud800',
  '"__proto__"',
  '"constructor"',
  '"number"',
  '"lines"',
  '"data"',
  '"requests"',
];
const XML_TOKENS = [
  '<!DOCTYPE a [<!ENTITY x "y">]>',
  '<![CDATA[',
  ']]>',
  '&#x41;',
  '&#9999999;',
  '&amp;',
  '&lt;',
  '<?xml version="1.0" encoding="windows-1251"?>',
  '<?xml version="1.0" encoding="UTF-8"?>',
  '\uFEFF',
  'xmlns:cml="urn:1C.ru:commerceml_2"',
  '<__proto__:i/>',
  '<__proto__><p>yes</p></__proto__>',
  '<ЗначениеРеквизита><Наименование>Город доставки</Наименование><Значение>Москва</Значение></ЗначениеРеквизита>',
  '<Документ>',
  '</Документ>',
  '<Товар>',
  '<Количество>1</Количество>',
  '<ИНН>7707083893</ИНН>',
  '\r\n',
];
const ED_TOKENS = [
  ...XML_TOKENS,
  '<msg:Format>http://v8.1c.ru/edi/edi_stnd/EnterpriseData/1.8</msg:Format>',
  '<msg:MessageNo>0</msg:MessageNo>',
  '<msg:MessageNo>999999999999999999999</msg:MessageNo>',
  '<Документ.ЗаказПоставщику>',
  '</Документ.ЗаказПоставщику>',
  '<КлючевыеСвойства>',
  '<Строка>',
  '<ЕдиницаИзмерения><ДанныеКлассификатора><Код>796</Код></ДанныеКлассификатора></ЕдиницаИзмерения>',
  '<АдресДоставки>г.о. Химки, г Химки</АдресДоставки>',
  'PK\u0003\u0004',
];
const ZIP_TOKENS = [
  'PK\u0003\u0004',
  'PK\u0001\u0002',
  'PK\u0005\u0006',
  'PK\u0007\u0008',
  'xl/worksheets/sheet1.xml',
  '[Content_Types].xml',
  '../x',
  '/x',
  'C:/x',
  'a\\b',
  '\u0000\u0000\u0000\u0000',
  '\u00ff\u00ff\u00ff\u00ff',
];
const SHEET_TOKENS = [
  ...XML_TOKENS,
  '<c r="A1" t="s"><v>0</v></c>',
  't="s"',
  't="inlineStr"',
  'r="XFD1048576"',
  'r="XFE1"',
  '<dimension ref="A1:XFD1048575"/>',
  '<mergeCell ref="A1:XFD1048576"/>',
  '<row r="1048577">',
  '<v>45000.5</v>',
  '<si><t>Заявка</t></si>',
  '<is><t>x</t></is>',
  's="1"',
];

/** The parts a workbook target may replace, by the input's first byte. */
const WORKBOOK_PARTS = ['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/workbook.xml', 'xl/styles.xml', '[Content_Types].xml'] as const;

/** The parts of the sample workbook, read once. */
let template: Map<string, Buffer> | undefined;
export async function workbookTemplate(): Promise<Map<string, Buffer>> {
  if (template) return template;
  const zip = await yauzl.openPromise(path.resolve('samples/requests-1c-report.xlsx'), { lazyEntries: true });
  const parts = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          parts.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  template = parts;
  return parts;
}

/** A workbook of the template's parts, `replaced` instead of one of them. */
async function workbookWith(part: string, replaced: Buffer): Promise<Buffer> {
  const parts = await workbookTemplate();
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of parts) zip.addBuffer(name === part ? replaced : bytes, name, { mtime: new Date(2000, 0, 1) });
  if (!parts.has(part)) zip.addBuffer(replaced, part, { mtime: new Date(2000, 0, 1) });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const SUGGEST_NAMES = ['sample.csv', 'sample.json', 'sample.xlsx', 'sample.xml', 'sample.zip', 'sample.tsv'];

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'csv',
    streams: true,
    dictionary: CSV_TOKENS,
    run: (data, split) => mapped(data, 'requests.csv', mapping('1c-requests.yaml'), split),
  },
  {
    name: 'json',
    streams: true,
    dictionary: JSON_TOKENS,
    run: (data, split) => mapped(data, 'requests.json', mapping('requests-json.yaml'), split),
  },
  {
    name: 'ndjson',
    streams: true,
    dictionary: [...JSON_TOKENS, '\n', '\r\n'],
    run: (data, split) => {
      const spec = mapping('requests-json.yaml');
      return mapped(data, 'requests.ndjson', { ...spec, format: 'ndjson', json: { ...spec.json, path: undefined } }, split);
    },
  },
  {
    name: 'xlsx-zip',
    streams: false,
    dictionary: ZIP_TOKENS,
    run: (data) => mapped(data, 'report.xlsx', mapping('1c-report-xlsx.yaml')),
  },
  {
    name: 'xlsx-parts',
    streams: false,
    dictionary: SHEET_TOKENS,
    run: async (data) => {
      const part = WORKBOOK_PARTS[(data[0] ?? 0) % WORKBOOK_PARTS.length]!;
      return mapped(await workbookWith(part, data.subarray(1)), 'report.xlsx', mapping('1c-report-xlsx.yaml'));
    },
  },
  {
    name: 'xml',
    streams: true,
    dictionary: XML_TOKENS,
    run: (data, split) => mapped(data, 'orders.xml', mapping('commerceml-orders.yaml'), split),
  },
  {
    name: 'enterprisedata',
    streams: true,
    dictionary: ED_TOKENS,
    run: async (data, split) => {
      let decision = 'unread';
      const codes: string[] = [];
      try {
        const header = await readMessageHeader(memoryChunks(data, split), XML_DEFAULTS);
        decision = JSON.stringify(decideMessage(header, { node: 'ПК', peer: 'УТ' }, ['1.6', '1.8', '1.21'], { lastTakenNo: 3 }));
      } catch (error) {
        if (!isConnectorError(error)) throw error;
        codes.push(error.code);
        decision = `refused ${error.code}`;
      }
      const body = await mapped(data, 'Message_УТ_ПК.xml', mapping('enterprisedata-orders.yaml'), split);
      return { summary: `${decision}\n${body.summary}`, codes: [...codes, ...body.codes] };
    },
  },
  {
    name: 'suggest',
    streams: false,
    dictionary: [...CSV_TOKENS, ...JSON_TOKENS, ...XML_TOKENS.slice(0, 8), 'PK\u0003\u0004'],
    run: async (data) => {
      const name = SUGGEST_NAMES[(data[0] ?? 0) % SUGGEST_NAMES.length]!;
      try {
        const suggestion = await suggestMappingForFile({ handle: memoryHandle(data.subarray(1)), name }, { kind: 'requests', now: NOW });
        // The summary worded as the CLI and as the Russian console say it: every phrase of the suggester, rendered.
        const preview = { ran: false, submissions: 0, problemsByCode: {}, fileProblem: false, problemFields: {}, examples: [] };
        const ru = translator('ru');
        const worded = [
          formatSuggestionSummary(suggestion, preview, 'fuzz'),
          formatSuggestionSummary(suggestion, preview, 'fuzz', (key, params) => ru(key, params)),
        ];
        return { summary: `${JSON.stringify(suggestion)}\n${worded.join('\n')}`, codes: [] };
      } catch (error) {
        if (!isConnectorError(error)) throw error;
        return { summary: `refused ${error.code}`, codes: [error.code] };
      }
    },
  },
];

/** The bytes as the chunks a stream would give (split at random places when asked). */
async function* memoryChunks(data: Buffer, split?: () => number): AsyncGenerator<Buffer> {
  for (let at = 0; at < data.length;) {
    const size = split === undefined ? 64 * 1024 : 1 + Math.floor(split() * Math.min(4096, data.length - at));
    yield data.subarray(at, at + size);
    at += size;
  }
}

/** The committed corpus of a target: every file in its folder (hidden files and READMEs aside). */
export function corpusOf(target: FuzzTarget): { file: string; bytes: Buffer }[] {
  const dir = path.join(CORPUS_ROOT, target.name);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => !name.startsWith('.') && name !== 'README.md')
    .sort()
    .map((name) => ({ file: path.join(dir, name), bytes: fs.readFileSync(path.join(dir, name)) }));
}

/** The parts of the template workbook as seeds of `xlsx-parts`: each with its selector byte first. */
export async function workbookPartSeeds(): Promise<{ name: string; bytes: Buffer }[]> {
  const parts = await workbookTemplate();
  return WORKBOOK_PARTS.filter((part) => parts.has(part)).map((part) => ({
    name: path.basename(part).replace(/[^\w.]/g, '_'),
    bytes: Buffer.concat([Buffer.from([WORKBOOK_PARTS.indexOf(part)]), parts.get(part)!]),
  }));
}
