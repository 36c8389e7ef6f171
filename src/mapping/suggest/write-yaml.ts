/**
 * The suggestion as a mapping: the data (`buildMapping`) and the commented YAML a person edits
 * (`writeSuggestionYaml`). Every written field carries its confidence and reason as a comment;
 * every field without a source is a `# TODO` line in its section, ready to uncomment; the columns
 * no field reads are listed at the end.
 */
import YAML, { Scalar, isMap, isPair, isScalar, type YAMLMap } from 'yaml';
import type { MappingKind } from '../../config/mapping-schema.js';
import { schemaFileName, schemaModeline, shippedSchemaPath } from '../../config/schema-files.js';
import { CONFIDENCE_THRESHOLD, type Detected, type FieldSuggestion, type SampleTable, type SuggestedSource } from './types.js';
import { quoted, shown } from './shown.js';
import { phraseEnglish, type Phrase } from './summary-words.js';

export interface MappingParts {
  kind: MappingKind;
  fileName: string;
  sample: Pick<SampleTable, 'format' | 'encoding' | 'delimiter' | 'jsonPath' | 'itemsPath' | 'headerLine'>;
  decimalComma: Detected<boolean>;
  thousandsReason: string | undefined;
  /** CSV: the grouping column, written when its confidence passed. */
  groupBy: Detected<string> | undefined;
  /** CSV: a grouping column below the threshold, written as a TODO line. */
  groupByGuess: (Detected<string> & { confidence: number }) | undefined;
  /** CSV, XLSX: the group column is blank below a request's first row. */
  fillDown?: Detected<boolean> | undefined;
  fields: readonly FieldSuggestion[];
  unusedColumns: readonly string[];
  warnings: readonly Phrase[];
}

const DISGUISING = /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/g;

type Section = 'root' | 'request' | 'confirmation' | 'items';

function sectionOf(key: string): { section: Section; name: string } {
  const dot = key.indexOf('.');
  if (dot === -1) return { section: 'root', name: key };
  return { section: key.slice(0, dot) as Section, name: key.slice(dot + 1) };
}

function fieldSpec(source: SuggestedSource | undefined, options: Record<string, unknown>): Record<string, unknown> {
  return { ...(source ?? {}), ...options };
}

const isJson = (parts: MappingParts) => parts.sample.format !== 'csv' && parts.sample.format !== 'xlsx';

/** The mapping the YAML holds, as data: what `parseMappingSpec` validates. */
export function buildMapping(parts: MappingParts): Record<string, unknown> {
  const mapping: Record<string, unknown> = { kind: parts.kind, format: parts.sample.format };
  if (isJson(parts)) {
    const json: Record<string, unknown> = {};
    if (parts.sample.jsonPath?.value !== undefined) json.path = parts.sample.jsonPath.value;
    if (parts.sample.encoding.value === 'windows-1251') json.encoding = 'windows-1251';
    if (parts.decimalComma.value) json.decimalComma = true;
    if (Object.keys(json).length > 0) mapping.json = json;
  } else {
    if (parts.sample.format === 'xlsx') {
      if (parts.decimalComma.value) mapping.xlsx = { decimalComma: true };
    } else {
      mapping.csv = { encoding: parts.sample.encoding.value, delimiter: parts.sample.delimiter?.value ?? ';', decimalComma: parts.decimalComma.value };
    }
    if (parts.groupBy) mapping.groupBy = parts.groupBy.value;
    if (parts.groupBy && parts.fillDown?.value) mapping.fillDown = true;
  }
  const sections: Record<string, Record<string, unknown>> = {};
  if (parts.kind === 'requests') sections.request = {};
  else sections.confirmation = {};
  sections.items = isJson(parts) && parts.sample.itemsPath?.value !== undefined ? { path: parts.sample.itemsPath.value } : {};
  for (const field of parts.fields) {
    if (field.source === undefined) continue;
    const { section, name } = sectionOf(field.key);
    if (section === 'root') mapping[name] = fieldSpec(field.source, field.options);
    else sections[section]![name] = fieldSpec(field.source, field.options);
  }
  return { ...mapping, ...sections };
}

const comment = (confidence: number, reason: string) => ` ${confidence.toFixed(2)}: ${reason}`;

/** A field spec in flow style, as it reads in a TODO line: `{ column: "Город", optional: true }`. */
export function inline(spec: Record<string, unknown>): string {
  const body = Object.entries(spec)
    .map(
      ([key, value]) =>
        `${key}: ${typeof value === 'object' && value !== null ? inline(value as Record<string, unknown>) : typeof value === 'string' ? quoted(value) : JSON.stringify(value)}`,
    )
    .join(', ');
  return `{ ${body} }`;
}

function todoLine(field: FieldSuggestion, json: boolean): string {
  const { name } = sectionOf(field.key);
  const spec = fieldSpec(field.guess ?? (json ? { path: '?' } : { column: '?' }), field.options);
  const need = field.required ? 'required' : 'optional';
  return ` TODO ${name}: ${inline(spec)}  # ${need}; ${field.confidence > 0 ? `${field.confidence.toFixed(2)}: ` : ''}${phraseEnglish(field.reason)}`;
}

/** The commented YAML of the suggestion. */
export function writeSuggestionYaml(parts: MappingParts): string {
  const doc = new YAML.Document(buildMapping(parts));
  const json = isJson(parts);
  const schema = `mapping-${parts.kind}` as const;
  doc.commentBefore = [
    // An editor with the YAML language server checks the mapping against its kind's schema as it is
    // edited. The schema named is the one of the program that runs (`shippedSchemaPath`: the schemas/
    // folder beside its own package.json, /opt/procurement-connector/schemas/ once installed), the
    // same file the installers point the shipped mappings at, and the same text `schema` prints.
    schemaModeline(shippedSchemaPath(schema)).slice(1),
    ` Mapping suggested by \`procurement-connector mapping suggest\` from ${shown(parts.fileName)} (${parts.kind}).`,
    ' A start to edit, not a finished mapping: each field says where its value comes from, why, and how',
    ` sure the guess is (0..1). Guesses under ${CONFIDENCE_THRESHOLD} are TODO lines: fill them in, then try it on the`,
    ' sample: `procurement-connector preview --mapping <this file> <sample>`.',
    ' The first line points an editor at the schema of this installation. To edit on another machine,',
    ` write it there with \`procurement-connector schema ${schema} > ${schemaFileName(schema)}\``,
    ' and point the line at that file.',
    ...parts.warnings.map((warning) => ` WARNING: ${phraseEnglish(warning)}`),
  ].join('\n');

  const at = (path: string[]) => doc.getIn(path, true) as Scalar | YAMLMap | undefined;
  const note = (path: string[], reason: Phrase | string | undefined) => {
    const node = at(path);
    if (node) node.comment = ` ${typeof reason === 'object' ? phraseEnglish(reason) : (reason ?? '')}`;
  };
  if (json) {
    note(['json', 'path'], parts.sample.jsonPath?.reason);
    note(['json', 'encoding'], parts.sample.encoding.reason);
    note(['json', 'decimalComma'], parts.decimalComma.reason);
    if (parts.sample.jsonPath?.value === undefined) note(['format'], parts.sample.jsonPath?.reason);
    note(['items', 'path'], parts.sample.itemsPath?.reason);
  } else if (parts.sample.format === 'xlsx') {
    note(
      ['format'],
      `the first sheet; header on row ${parts.sample.headerLine?.value ?? '?'} (${parts.sample.headerLine ? phraseEnglish(parts.sample.headerLine.reason) : ''})`,
    );
    note(['xlsx', 'decimalComma'], parts.decimalComma.reason);
    if (parts.groupBy) note(['groupBy'], parts.groupBy.reason);
    if (parts.fillDown) note(['fillDown'], parts.fillDown.reason);
  } else {
    note(['csv', 'encoding'], parts.sample.encoding.reason);
    note(['csv', 'delimiter'], parts.sample.delimiter?.reason);
    const thousands = parts.thousandsReason ? `; thousands separated as in ${parts.thousandsReason}` : '';
    note(['csv', 'decimalComma'], `${phraseEnglish(parts.decimalComma.reason)}${thousands}`);
    if (parts.groupBy) note(['groupBy'], parts.groupBy.reason);
    if (parts.fillDown) note(['fillDown'], parts.fillDown.reason);
  }

  const todos: Record<Section, string[]> = { root: [], request: [], confirmation: [], items: [] };
  if (!json && !parts.groupBy) {
    const guess = parts.groupByGuess;
    todos.root.push(
      guess
        ? ` TODO groupBy: ${quoted(guess.value)}  # required; ${guess.confidence.toFixed(2)}: ${phraseEnglish(guess.reason)}`
        : ' TODO groupBy: "?"  # required; no column groups the rows into requests',
    );
  }
  for (const field of parts.fields) {
    const { section, name } = sectionOf(field.key);
    if (field.source === undefined) {
      todos[section].push(todoLine(field, json));
      continue;
    }
    const node = at(section === 'root' ? [name] : [section, name]);
    if (isMap(node)) {
      node.flow = true;
      node.comment = comment(field.confidence, phraseEnglish(field.reason));
    }
  }
  for (const section of ['request', 'confirmation', 'items'] as const) {
    const node = at([section]);
    if (isMap(node) && todos[section].length > 0) node.comment = todos[section].join('\n');
  }
  const trailer = [...todos.root];
  if (parts.unusedColumns.length > 0) trailer.push(` Columns no field reads: ${parts.unusedColumns.map(shown).join(', ')}`);
  if (trailer.length > 0) doc.comment = trailer.join('\n');

  // Column names, paths, formats and delimiters in double quotes, as the examples of docs/mapping.md write them.
  YAML.visit(doc, {
    Pair(_, pair, path) {
      if (!isPair(pair) || !isScalar(pair.key)) return;
      // The keys of a `map:` are source values too (`"руб.": "RUB"`).
      const parent = path[path.length - 2];
      if (isPair(parent) && isScalar(parent.key) && parent.key.value === 'map') pair.key.type = Scalar.QUOTE_DOUBLE;
      if (!isScalar(pair.value) || typeof pair.value.value !== 'string') return;
      if (!['kind', 'format', 'encoding'].includes(String(pair.key.value))) pair.value.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // The yaml package leaves bidirectional overrides (and C1 controls) raw in double-quoted values; a
  // column name must not reorder what the user sees in an editor. Every such value is double-quoted
  // (comments quote names through `shown`), where `\uXXXX` is the same character.
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true }).replace(DISGUISING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
