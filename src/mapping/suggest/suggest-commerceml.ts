/**
 * `mapping suggest` on a CommerceML document export: `preset: commerceml`, which reads every field
 * the standard carries, tried on the whole sample (so "empty" is what the daemon would find). A
 * request field the preset leaves empty in some document is then looked for among the documents'
 * requisites (`match-requisites.ts`): one that (nearly) every order document carries is written as
 * the field's path. What is still empty is a TODO line. Any other XML gets a skeleton naming what
 * to write by hand (`record:`, `lines:`, the paths).
 */
import { parseMappingSpec } from '../../config/load-mapping.js';
import type { MappingKind } from '../../config/mapping-schema.js';
import { COMMERCEML_PRESET } from '../../config/presets/commerceml.js';
import type { OpenedInput } from '../../shared/input-file.js';
import { matchRequisites } from './match-requisites.js';
import { readOrderDocuments } from './read-requisites.js';
import { shown } from './shown.js';
import { ONE_OF, targetsOf } from './targets.js';
import { tryPreset } from './try-preset.js';
import type { FieldSuggestion, MappingSuggestion } from './types.js';
import { inline } from './write-yaml.js';
import { xmlSkeleton, xmlSuggestion } from './xml-suggestion.js';
import { phrase, phraseEnglish, type Phrase } from './summary-words.js';

const PRESET_FIELDS: Record<string, string | undefined> = Object.fromEntries([
  ...Object.entries(COMMERCEML_PRESET.request).map(([name, field]) => [`request.${name}`, 'path' in field ? field.path : undefined]),
  ...Object.entries(COMMERCEML_PRESET.items).map(([name, field]) => [`items.${name}`, 'path' in field ? field.path : 'counter']),
]);

/**
 * Alternatives of the preset that stand in for a value CommerceML has no element for: the document's
 * own date for the date wanted. A requisite the documents carry says it better, so a field is looked
 * for among the requisites when its path without these reads nothing in some document.
 */
const STAND_INS: Readonly<Record<string, string>> = { 'request.delivery.desiredDate': 'Дата' };

/** The preset's request paths, without their stand-ins. */
const OWN_PATHS: Record<string, string> = Object.fromEntries(
  Object.entries(PRESET_FIELDS).flatMap(([key, path]) => {
    if (!key.startsWith('request.') || path === undefined) return [];
    const own = path
      .split(' | ')
      .filter((alternative) => alternative !== STAND_INS[key])
      .join(' | ');
    return [[key, own]];
  }),
);

/** The suggestion for an XML sample that is no EnterpriseData message; undefined never (it is answered here, CommerceML or not). */
export async function suggestCommerceMl(
  input: OpenedInput,
  fileName: string,
  options: { kind: MappingKind; now: Date },
): Promise<MappingSuggestion | undefined> {
  if (options.kind !== 'requests') {
    return xmlSkeleton(fileName, options.kind, [phrase('summary.warn.commerceMlKind', { kind: options.kind })]);
  }
  const spec = parseMappingSpec({ kind: 'requests', preset: 'commerceml' }, 'preset commerceml');
  const run = await tryPreset(input, spec, fileName, options.now);
  if ('unsupported' in run) return xmlSkeleton(fileName, 'requests', [phrase('summary.warn.notCommerceMl', { why: run.unsupported })]);
  const { documents, empty } = run;

  // Request fields the preset has no path for, or whose own path reads nothing in some document, are looked for among the requisites.
  const read = await readOrderDocuments(input, spec, OWN_PATHS);
  const open = targetsOf('requests').filter(
    (target) => target.level === 'record' && (OWN_PATHS[target.key] === undefined || (read.empty.get(target.key) ?? 0) > 0),
  );
  const requisites = matchRequisites(read, open);

  const fields: FieldSuggestion[] = targetsOf('requests').map((target) => {
    const fromRequisite = requisites.fields.get(target.key);
    if (fromRequisite !== undefined) return fromRequisite;
    const path = PRESET_FIELDS[target.key];
    const missing = empty.get(target.key) ?? 0;
    if (path === undefined) {
      return { key: target.key, required: false, source: undefined, options: {}, confidence: 0, reason: phrase('summary.why.notInCommerceMl') };
    }
    if (missing > 0) {
      const hint = requisites.hints.get(target.key);
      return {
        key: target.key,
        required: target.required,
        source: undefined,
        options: { default: '?' },
        confidence: 0,
        reason: phrase('summary.why.emptyCommerceMl', { missing, n: documents, hint: hint === undefined ? '' : phrase('summary.why.hint', { hint }) }),
      };
    }
    return {
      key: target.key,
      required: target.required,
      source: path === 'counter' ? { counter: true } : { path },
      options: {},
      confidence: 1,
      reason: phrase('summary.why.presetCommerceMl'),
    };
  });
  const own = fields.filter((field) => requisites.fields.has(field.key));
  const todo = fields.filter((field) => field.source === undefined && field.reason.key === 'summary.why.emptyCommerceMl');
  const complete = documents > 0 && todo.every((field) => !field.required) && oneOfFilled(fields);
  const warnings = documents === 0 ? [phrase('summary.warn.noCommerceMlOrder')] : [];
  const notes = own.map((field) => requisites.evidence.get(field.key)!);
  const request = Object.fromEntries(own.map((field) => [field.key.slice('request.'.length), { ...field.source, ...field.options }]));
  return xmlSuggestion({
    fileName,
    kind: 'requests',
    mapping: { preset: 'commerceml', ...(own.length > 0 ? { request } : {}) },
    yaml: yamlOf(fileName, documents, own, todo, warnings),
    fields,
    documents,
    document: phrase('summary.doc.commerceMl', { n: documents }),
    warnings,
    notes,
    complete,
  });
}

function oneOfFilled(fields: readonly FieldSuggestion[]): boolean {
  const oneOf = ONE_OF.requests ?? [];
  return fields.some((field) => oneOf.includes(field.key) && field.source !== undefined);
}

function yamlOf(fileName: string, documents: number, own: readonly FieldSuggestion[], todo: readonly FieldSuggestion[], warnings: readonly Phrase[]): string {
  const lines = [
    `# Mapping suggested by \`procurement-connector mapping suggest\` from ${shown(fileName)} (requests).`,
    `# A CommerceML document export (${documents} order document${documents === 1 ? '' : 's'}): \`preset: commerceml\` reads every field`,
    '# the standard carries (docs/mapping-commerceml.md lists them); a field written below replaces or',
    "# adds to the preset's. Then run `preview`.",
    ...warnings.map((warning) => `# WARNING: ${phraseEnglish(warning)}`),
    'kind: requests',
    'preset: commerceml',
  ];
  const request = todo.filter((field) => field.key.startsWith('request.'));
  const items = todo.filter((field) => field.key.startsWith('items.'));
  const todoLine = (field: FieldSuggestion, name: string) =>
    `${name}: { default: "?" }  # ${field.required ? 'required' : 'optional'}; ${phraseEnglish(field.reason)}`;
  const section = (name: string, list: readonly FieldSuggestion[]) => [
    `# TODO ${name}:`,
    ...list.map((field) => `#   ${todoLine(field, field.key.slice(name.length + 1))}`),
  ];
  if (own.length > 0) {
    lines.push(
      'request:',
      "  # Read from the order documents' requisites (ЗначенияРеквизитов), which (nearly) every order",
      "  # document of the sample carries with a value; each replaces the preset's field.",
      ...own.map(
        (field) =>
          `  ${field.key.slice('request.'.length)}: ${inline({ ...field.source, ...field.options })} # ${field.confidence.toFixed(2)}: ${phraseEnglish(field.reason)}`,
      ),
      ...request.map((field) => `  # TODO ${todoLine(field, field.key.slice('request.'.length))}`),
    );
  } else if (request.length > 0) lines.push(...section('request', request));
  if (items.length > 0) lines.push(...section('items', items));
  return `${lines.join('\n')}\n`;
}
