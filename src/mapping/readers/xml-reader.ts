/**
 * The XML reader (a tree): bytes → text (`xml/xml-decoder.ts`) → saxes → records
 * (`xml/record-parser.ts`), streamed, so memory follows the largest record, not the file.
 *
 * Each record is one request: the element at `record:` (from the root, `КоммерческаяИнформация/
 * Документ`), placed at its start tag and numbered from 1 among the records read; its lines are
 * the elements at `lines:` inside it (`Товары/Товар`), each placed at its own start tag. Field
 * paths read a record (or a line) element: its text, or an attribute, as written (fields trim).
 */
import type { MappingSpec, XmlOptions } from '../../config/mapping-schema.js';
import { parseXmlPath, type XmlPath, type XmlPathRole, type XmlStep } from '../../config/xml-path.js';
import { ConnectorError, isConnectorError } from '../../errors.js';
import { cannotReadFile, readChunks, type InputHandle } from '../../shared/input-file.js';
import type { SourceGetter } from '../compile-field.js';
import type { ReadOptions, TreeReader, TreeRecord } from './types.js';
import { sniffContainer } from './sniff.js';
import { readZippedXml } from './zip/zipped-xml.js';
import { XmlDecoder } from './xml/xml-decoder.js';
import { readAllValues, readPath, selectElements, type XmlNode } from './xml/xml-node.js';
import { XmlRecordParser } from './xml/record-parser.js';

export type { XmlNode };

export const xmlReader: TreeReader = {
  shape: 'tree',
  open: (handle: InputHandle, spec: MappingSpec, options?: ReadOptions) => ({
    records: readXmlRecords(xmlBytes(handle, spec.xml, options), xmlReadSpecOf(spec), options?.signal),
    source: xmlPathGetter,
    sourceAll: xmlPathAllGetter,
    decimalComma: spec.xml.decimalComma,
  }),
};

/**
 * The bytes of an XML file: the file's own, or those of the one XML entry of a ZIP archive (1C
 * compresses its exchange messages, with a password or without), told apart by the first bytes.
 */
export async function* xmlBytes(handle: InputHandle, xml: Pick<XmlOptions, 'maxUncompressedBytes'>, options?: ReadOptions): AsyncGenerator<Buffer> {
  if ((await sniffContainer(handle)) === 'zip') {
    yield* readZippedXml(handle, { password: options?.archivePassword, maxUncompressedBytes: xml.maxUncompressedBytes }, options?.signal);
  } else {
    yield* readChunks(handle, options?.signal);
  }
}

/** What reading records needs of a mapping: its record path, its lines (one path or several), its withdrawals. */
export interface XmlReadSpec {
  record: string | undefined;
  lines: string | readonly string[] | undefined;
  withdrawals?: { record: string } | undefined;
  xml: XmlOptions;
}

/** The reading part of a mapping spec. */
export function xmlReadSpecOf(spec: MappingSpec): XmlReadSpec {
  return { record: spec.record, lines: spec.lines, withdrawals: spec.kind === 'requests' ? spec.withdrawals : undefined, xml: spec.xml };
}

/**
 * The records of an XML document given as byte chunks (a file's, or any stream's), in order.
 * Throws a `ConnectorError`: `XML_*`, `FILE_FORMAT_UNSUPPORTED`, `FILE_UNREADABLE`; the signal's
 * reason when aborted. Stops reading when the consumer stops.
 */
export async function* readXmlRecords(chunks: AsyncIterable<Buffer>, spec: XmlReadSpec, signal?: AbortSignal): AsyncGenerator<TreeRecord<unknown>> {
  const recordPath = parsePath(spec.record, 'record');
  const linesPaths = (typeof spec.lines === 'string' || spec.lines === undefined ? [spec.lines] : spec.lines).map((lines) => parsePath(lines, 'lines'));
  const withdrawal = spec.withdrawals && withdrawalsOf(recordPath, parsePath(spec.withdrawals.record, 'record'));
  const decoder = new XmlDecoder(spec.xml.encoding);
  const parser = new XmlRecordParser({ record: withdrawal?.both ?? recordPath, ...spec.xml });
  let row = 0;
  const records = function* () {
    for (const node of parser.takeCompleted()) {
      row += 1;
      yield withdrawal?.is(node) ? { place: placeOf(node, row), node, lines: [], withdrawal: true as const } : recordOf(node, row, linesPaths);
    }
  };
  // Records the parser completed before a fault are handed out before it, whatever else the same
  // read held: which records come before a broken tag must not depend on where reads cut the file.
  let fault: unknown;
  const feed = (step: () => void) => {
    try {
      step();
    } catch (error) {
      fault = error;
    }
  };
  try {
    for await (const chunk of chunks) {
      signal?.throwIfAborted();
      feed(() => parser.write(decoder.write(chunk)));
      yield* records();
      if (fault !== undefined) throw fault;
    }
    feed(() => {
      parser.write(decoder.end());
      decoder.close();
      parser.end();
    });
    yield* records();
    if (fault !== undefined) throw fault;
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    const code = (error as NodeJS.ErrnoException).code;
    // A read error (EIO, …) is the file's; anything else is a fault of ours, left for mapFile to report.
    if (isConnectorError(error) || typeof code !== 'string') throw error;
    throw cannotReadFile(error);
  }
}

const placeOf = (node: XmlNode, row: number) => ({ row, line: node.line, column: node.column });

/** A record with its lines: those of every lines path, in the order of the paths (goods, then services). */
function recordOf(node: XmlNode, row: number, linesPaths: readonly XmlPath[]): TreeRecord<unknown> {
  return {
    place: placeOf(node, row),
    node,
    lines: linesPaths.flatMap((path) => selectElements(path, node)).map((line) => ({ place: placeOf(line, row), node: line })),
  };
}

/**
 * Records and withdrawals are read in one pass, as the alternatives of one record path, so that
 * they come in the document's order; a withdrawal is told apart by its element's name, which must
 * then differ from every record's.
 */
function withdrawalsOf(records: XmlPath, withdrawals: XmlPath): { both: XmlPath; is: (node: XmlNode) => boolean } {
  const lastName = (steps: readonly XmlStep[]) => (steps.at(-1) as XmlStep & { kind: 'element' }).name;
  const names = new Set(withdrawals.alternatives.map(lastName));
  if (records.alternatives.some((steps) => names.has(lastName(steps)))) {
    const said = `withdrawals.record "${withdrawals.text}" ends in the same element as record:`;
    throw new ConnectorError('MAPPING_INVALID', `cannot be read with this mapping: ${said}`, { text: { key: 'mappingCannotRead', params: { said } } });
  }
  return {
    both: { text: `${records.text} | ${withdrawals.text}`, alternatives: [...records.alternatives, ...withdrawals.alternatives] },
    is: (node) => names.has(node.name),
  };
}

/** A getter for an XML field path (`Контрагенты/Контрагент[Роль='Покупатель']/ИНН`, `@Код`, `a | b`). */
export function xmlPathGetter(ref: string): SourceGetter<unknown> {
  const path = parsePath(ref, 'field');
  return (node) => readPath(path, node as XmlNode);
}

/** A getter of every value an XML field path reaches (`latest:`). */
export function xmlPathAllGetter(ref: string): (node: unknown) => string[] {
  const path = parsePath(ref, 'field');
  return (node) => readAllValues(path, node as XmlNode);
}

/** The loader checked every path; one that fails here came from a spec built another way. */
function parsePath(text: string | undefined, role: XmlPathRole): XmlPath {
  const refused = (said: string) =>
    new ConnectorError('MAPPING_INVALID', `cannot be read with this mapping: ${said}`, { text: { key: 'mappingCannotRead', params: { said } } });
  if (text === undefined) {
    const said = `an XML mapping needs ${role}:`;
    throw new ConnectorError('MAPPING_INVALID', `cannot be read: ${said}`, { text: { key: 'mappingCannotRead', params: { said } } });
  }
  const parsed = parseXmlPath(text, role);
  if (typeof parsed === 'string') throw refused(`${role === 'field' ? 'the path' : `${role}:`} "${text}" ${parsed}`);
  return parsed;
}
