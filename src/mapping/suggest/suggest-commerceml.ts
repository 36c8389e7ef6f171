/**
 * `mapping suggest` on an XML file: a CommerceML document export gets `preset: commerceml`, which
 * reads every field the standard carries, and a TODO line for each field this export leaves empty
 * (the preset is tried on the whole sample, so "empty" is what the daemon would find). Any other
 * XML gets a skeleton naming what to write by hand (`record:`, `lines:`, the paths).
 */
import { parseMappingSpec } from '../../config/load-mapping.js';
import { COMMERCEML_PRESET } from '../../config/presets/commerceml.js';
import { ConnectorError } from '../../errors.js';
import type { OpenedInput } from '../../shared/input-file.js';
import { mapFile } from '../map-file.js';
import { shown } from './shown.js';
import { ONE_OF, targetsOf } from './targets.js';
import type { FieldSuggestion, MappingSuggestion, SampleTable } from './types.js';
import type { MappingKind } from '../../config/mapping-schema.js';

const PRESET_FIELDS: Record<string, string | undefined> = Object.fromEntries([
  ...Object.entries(COMMERCEML_PRESET.request).map(([name, field]) => [`request.${name}`, 'path' in field ? field.path : undefined]),
  ...Object.entries(COMMERCEML_PRESET.items).map(([name, field]) => [`items.${name}`, 'path' in field ? field.path : 'counter']),
]);

/** The suggestion for an XML sample; undefined never (an XML file is answered here, CommerceML or not). */
export async function suggestCommerceMl(
  input: OpenedInput,
  fileName: string,
  options: { kind: MappingKind; now: Date },
): Promise<MappingSuggestion | undefined> {
  if (options.kind !== 'requests') {
    return skeleton(fileName, options.kind, [
      `the CommerceML preset maps buyer requests; a ${options.kind} flow reading XML needs record, lines and paths written by hand`,
    ]);
  }
  const spec = parseMappingSpec({ kind: 'requests', preset: 'commerceml' }, 'preset commerceml');
  const rows = new Set<number>();
  const empty = new Map<string, Set<number>>();
  let submissions = 0;
  for await (const item of mapFile(input, spec, { now: options.now, rejectPastDates: false, fileLabel: fileName })) {
    if (item.type === 'submission') {
      submissions += 1;
      rows.add(item.submission.firstRow);
      continue;
    }
    const { problem } = item;
    if (problem.row === null) {
      // Not an order export (another root), or not a file to read at all.
      if (problem.code === 'FILE_FORMAT_UNSUPPORTED') return skeleton(fileName, 'requests', [`not a CommerceML document export: ${problem.message}`]);
      throw new ConnectorError(problem.code, problem.message);
    }
    rows.add(problem.row);
    if (problem.code !== 'FIELD_REQUIRED' || problem.field === null) continue;
    const key = /^items\[\d+\]\.(.+)$/.exec(problem.field)?.[1];
    const target = key === undefined ? `request.${problem.field}` : `items.${key}`;
    if (!empty.has(target)) empty.set(target, new Set());
    empty.get(target)!.add(problem.row);
  }
  const documents = rows.size;
  const fields: FieldSuggestion[] = targetsOf('requests').map((target) => {
    const path = PRESET_FIELDS[target.key];
    const missing = empty.get(target.key)?.size ?? 0;
    if (path === undefined) {
      return { key: target.key, required: false, source: undefined, options: {}, confidence: 0, reason: 'CommerceML carries no such field' };
    }
    if (missing > 0) {
      return {
        key: target.key,
        required: target.required,
        source: undefined,
        options: { default: '?' },
        confidence: 0,
        reason: `empty in ${missing} of ${documents} documents: CommerceML does not carry it here, give a default`,
      };
    }
    return {
      key: target.key,
      required: target.required,
      source: path === 'counter' ? { counter: true } : { path },
      options: {},
      confidence: 1,
      reason: 'preset commerceml',
    };
  });
  const todo = fields.filter((field) => field.source === undefined && field.reason.startsWith('empty'));
  const complete = submissions > 0 && todo.every((field) => !field.required) && oneOfFilled(fields);
  const warnings = documents === 0 ? ['no order document (ХозОперация "Заказ товара") in the sample'] : [];
  return build(fileName, 'requests', { preset: 'commerceml' }, yamlOf(fileName, documents, todo, warnings), fields, documents, warnings, complete);
}

function oneOfFilled(fields: readonly FieldSuggestion[]): boolean {
  const oneOf = ONE_OF.requests ?? [];
  return fields.some((field) => oneOf.includes(field.key) && field.source !== undefined);
}

function yamlOf(fileName: string, documents: number, todo: readonly FieldSuggestion[], warnings: readonly string[]): string {
  const lines = [
    `# Mapping suggested by \`procurement-connector mapping suggest\` from ${shown(fileName)} (requests).`,
    `# A CommerceML document export (${documents} order document${documents === 1 ? '' : 's'}): \`preset: commerceml\` reads every field`,
    '# the standard carries (docs/mapping-commerceml.md lists them); a field written below replaces or',
    "# adds to the preset's. Then run `preview`.",
    ...warnings.map((warning) => `# WARNING: ${warning}`),
    'kind: requests',
    'preset: commerceml',
  ];
  const request = todo.filter((field) => field.key.startsWith('request.'));
  const items = todo.filter((field) => field.key.startsWith('items.'));
  const section = (name: string, list: readonly FieldSuggestion[]) => [
    `# TODO ${name}:`,
    ...list.map((field) => `#   ${field.key.slice(name.length + 1)}: { default: "?" }  # ${field.required ? 'required' : 'optional'}; ${field.reason}`),
  ];
  if (request.length > 0) lines.push(...section('request', request));
  if (items.length > 0) lines.push(...section('items', items));
  return `${lines.join('\n')}\n`;
}

/** Any other XML: what to write by hand. */
function skeleton(fileName: string, kind: MappingSuggestion['kind'], warnings: string[]): MappingSuggestion {
  const yaml = [
    `# Mapping suggested by \`procurement-connector mapping suggest\` from ${shown(fileName)} (${kind}).`,
    '# An XML file that is not a CommerceML order export: write the element path of one request',
    "# (record, from the root), of its lines (lines, inside the record) and each field's path",
    '# (docs/mapping.md, "XML and CommerceML"), then run `preview`.',
    ...warnings.map((warning) => `# WARNING: ${warning}`),
    `kind: ${kind}`,
    'format: xml',
    '# TODO record: "Root/Document"',
    '# TODO lines: "Lines/Line"',
    '',
  ].join('\n');
  const fields = targetsOf(kind).map((target): FieldSuggestion => ({
    key: target.key,
    required: target.required,
    source: undefined,
    options: {},
    confidence: 0,
    reason: 'write its path by hand',
  }));
  return build(fileName, kind, { format: 'xml' }, yaml, fields, 0, warnings, false);
}

function build(
  fileName: string,
  kind: MappingSuggestion['kind'],
  mapping: Record<string, unknown>,
  yaml: string,
  fields: FieldSuggestion[],
  documents: number,
  warnings: string[],
  complete: boolean,
): MappingSuggestion {
  const sample: Omit<SampleTable, 'columns'> & { columns: string[] } = {
    format: 'xml',
    encoding: { value: 'auto', reason: "the XML declaration's, as the daemon reads it" },
    columns: [],
    rowCount: documents,
    warnings,
  };
  return {
    kind,
    fileName,
    yaml,
    mapping: { kind, ...mapping },
    sample,
    decimalComma: { value: false, reason: 'CommerceML writes numbers with a decimal point' },
    thousands: [],
    groupCount: documents,
    dates: {},
    fields,
    unusedColumns: [],
    warnings,
    complete,
  };
}
