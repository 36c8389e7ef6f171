/**
 * `mapping suggest` on one of 1C's EnterpriseData exchange messages (`Message`, its `Header`'s
 * `Format` the EnterpriseData namespace; plain or zipped, as 1C writes it): `preset: enterprisedata`,
 * which reads every field of a purchase order (`Документ.ЗаказПоставщику`) the format carries, with
 * what it does not carry given as the shipped `enterprisedata-orders.yaml` gives it (SITE
 * placeholders). The preset is tried on the whole sample, so the summary says how many purchase
 * orders it holds and which fields the placeholders stand in for; a field the preset reads but the
 * sample leaves empty is a TODO line. A settings message (the handshake) holds no order: the preset
 * is proposed all the same, with nothing to preview.
 *
 * The mapping alone does not make an exchange flow: the flow's `enterpriseData` names the two codes
 * the header carries, which the notes print.
 */
import { parseMappingSpec } from '../../config/load-mapping.js';
import { ENTERPRISEDATA_VERSIONS } from '../../config/enterprisedata-schema.js';
import type { MappingKind } from '../../config/mapping-schema.js';
import { ENTERPRISEDATA_PRESET } from '../../config/presets/enterprisedata.js';
import { schemaModeline, shippedSchemaPath } from '../../config/schema-files.js';
import { ConnectorError } from '../../errors.js';
import type { OpenedInput } from '../../shared/input-file.js';
import { sniffContainer } from '../readers/sniff.js';
import { ENTERPRISEDATA_SITE_DEFAULTS, type SiteDefault } from '../../config/presets/enterprisedata-site-defaults.js';
import { readExchangeHeader, type ExchangeHeader } from './read-exchange-header.js';
import { quoted, shown } from './shown.js';
import { phrase, phraseEnglish, type Phrase } from './summary-words.js';
import { targetsOf } from './targets.js';
import { tryPreset } from './try-preset.js';
import type { FieldSuggestion, MappingSuggestion, SuggestedSource } from './types.js';
import { inline } from './write-yaml.js';
import { xmlSkeleton, xmlSuggestion } from './xml-suggestion.js';

const ORDER = 'Документ.ЗаказПоставщику';

/** Where the preset reads each field from, as the suggestion shows it. */
const PRESET_FIELDS: Record<string, SuggestedSource | undefined> = Object.fromEntries(
  [
    ...Object.entries(ENTERPRISEDATA_PRESET.request).map(([name, field]) => [`request.${name}`, field] as const),
    ...Object.entries(ENTERPRISEDATA_PRESET.items).map(([name, field]) => [`items.${name}`, field] as const),
  ].map(([key, field]): [string, SuggestedSource] => {
    if ('path' in field) return [key, { path: field.path }];
    if ('template' in field) return [key, { template: field.template }];
    if ('parts' in field) return [key, { parts: field.parts }];
    return [key, { counter: true }];
  }),
);
const SITE = new Map(ENTERPRISEDATA_SITE_DEFAULTS.map((site) => [`request.${site.name}`, site]));

/** The suggestion for an EnterpriseData message; undefined when the sample is no such message. */
export async function suggestEnterpriseData(
  input: OpenedInput,
  fileName: string,
  options: { kind: MappingKind; now: Date },
): Promise<MappingSuggestion | undefined> {
  const header = await readExchangeHeader(input, fileName);
  if (header === undefined) return undefined;
  if (options.kind !== 'requests') {
    return xmlSkeleton(fileName, options.kind, [phrase('summary.warn.edKind', { kind: options.kind })]);
  }
  // The site's phone, so that no order fails for want of a phone or an e-mail; no defaults, so that an empty field shows.
  const phone = SITE.get('request.contact.phone')!.spec;
  const spec = parseMappingSpec({ kind: 'requests', preset: 'enterprisedata', request: { 'contact.phone': phone } }, 'preset enterprisedata');
  const run = await tryPreset(input, spec, fileName, options.now);
  if ('unsupported' in run) throw new ConnectorError('FILE_FORMAT_UNSUPPORTED', run.unsupported);
  const { documents: orders, empty } = run;
  const fields = targetsOf('requests').map((target) => fieldOf(target.key, target.required, orders, empty.get(target.key) ?? 0));
  const todo = fields.filter((field) => field.source === undefined && field.reason.key === 'summary.why.emptyEnterpriseData');
  const warnings = warningsOf(header, orders);
  const notes = [
    ...exchangeNotes(header, (await sniffContainer(input.handle)) === 'zip'),
    phrase('summary.note.edPlaceholders', { fields: ENTERPRISEDATA_SITE_DEFAULTS.map((site) => site.name).join(', ') }),
  ];
  return xmlSuggestion({
    fileName,
    kind: 'requests',
    mapping: { preset: 'enterprisedata', request: Object.fromEntries(ENTERPRISEDATA_SITE_DEFAULTS.map((site) => [site.name, site.spec])) },
    yaml: yamlOf(fileName, header, orders, empty, todo, warnings),
    fields,
    documents: orders,
    document: messagePhrase(header, orders),
    warnings,
    notes,
    complete: todo.every((field) => !field.required),
  });
}

function fieldOf(key: string, required: boolean, orders: number, missing: number): FieldSuggestion {
  const source = PRESET_FIELDS[key];
  const site = SITE.get(key);
  const base = { key, required, confidence: 1 };
  if (site !== undefined && 'const' in site.spec) {
    return { ...base, source: { const: site.spec.const }, options: {}, reason: phrase('summary.why.sitePlaceholder') };
  }
  if (source === undefined)
    return { ...base, required: false, source: undefined, options: {}, confidence: 0, reason: phrase('summary.why.notInEnterpriseData') };
  if (site !== undefined) {
    const reason = missing > 0 ? phrase('summary.why.siteDefaultStandsIn', { missing, n: orders }) : phrase('summary.why.siteDefaultUnneeded');
    return { ...base, source, options: site.spec, reason };
  }
  if (missing > 0) {
    return {
      ...base,
      source: undefined,
      options: { default: '?' },
      confidence: 0,
      reason: phrase('summary.why.emptyEnterpriseData', { missing, n: orders }),
    };
  }
  return { ...base, source, options: {}, reason: phrase('summary.why.presetEnterpriseData') };
}

const ordersPhrase = (orders: number): Phrase => (orders === 0 ? phrase('summary.doc.noOrders') : phrase('summary.doc.orders', { n: orders }));
const ordersText = (orders: number) => phraseEnglish(ordersPhrase(orders));

/** Which message it is, from whom to whom (the summary's description and the YAML's first comment). */
function whichMessage(header: ExchangeHeader): Phrase {
  const node = (code: string | null): Phrase | string => (code === null ? phrase('summary.doc.unnamedNode') : shown(code));
  const params = { from: node(header.from), to: node(header.to) };
  return header.version === null ? phrase('summary.doc.edSettings', params) : phrase('summary.doc.edData', { ...params, version: header.version });
}

/** What the message is, as the summary names it. */
function messagePhrase(header: ExchangeHeader, orders: number): Phrase {
  return phrase('summary.doc.edMessage', { message: whichMessage(header), orders: ordersPhrase(orders), object: ORDER });
}

const describeMessage = (header: ExchangeHeader): string => phraseEnglish(whichMessage(header));

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

function warningsOf(header: ExchangeHeader, orders: number): Phrase[] {
  const warnings: Phrase[] = [];
  if (header.version !== null && !(ENTERPRISEDATA_VERSIONS as readonly string[]).includes(header.version)) {
    warnings.push(phrase('summary.warn.edVersion', { version: header.version, versions: ENTERPRISEDATA_VERSIONS.join(', ') }));
  }
  if (orders === 0) warnings.push(phrase(header.version === null ? 'summary.warn.edSettingsMessage' : 'summary.warn.edNoOrder', { object: ORDER }));
  return warnings;
}

/** What the flow needs besides the mapping: the codes of the exchange, and the archive's password if 1C sets one. */
function exchangeNotes(header: ExchangeHeader, zipped: boolean): Phrase[] {
  const code = (value: string | null) => (value === null ? '"?"' : quoted(value));
  const missingKey =
    header.to === null && header.from === null
      ? 'summary.note.edNoAddresseeNorSender'
      : header.to === null
        ? 'summary.note.edNoAddressee'
        : header.from === null
          ? 'summary.note.edNoSender'
          : undefined;
  const missing = missingKey === undefined ? '' : phrase('summary.note.edMissing', { what: phrase(missingKey) });
  return [phrase('summary.note.edNodes', { node: code(header.to), peer: code(header.from), missing }), ...(zipped ? [phrase('summary.note.edPassword')] : [])];
}

function yamlOf(
  fileName: string,
  header: ExchangeHeader,
  orders: number,
  empty: ReadonlyMap<string, number>,
  todo: readonly FieldSuggestion[],
  warnings: readonly Phrase[],
): string {
  const code = (value: string | null) => (value === null ? '"?"' : quoted(value));
  const lines = [
    schemaModeline(shippedSchemaPath('mapping-requests')),
    `# Mapping suggested by \`procurement-connector mapping suggest\` from ${shown(fileName)} (requests).`,
    `# ${capitalized(describeMessage(header))}, with ${ordersText(orders)} (${ORDER}):`,
    '# `preset: enterprisedata` reads every field EnterpriseData carries (docs/enterprisedata.md lists them);',
    '# below is what it does not carry, as the shipped config/mappings/enterprisedata-orders.yaml gives it.',
    '# Then run `preview`.',
    '#',
    "# The flow reading these messages also needs, in the daemon config, the codes of this message's header",
    "# (node: Header/Confirmation/To, the code 1C gave this program; peer: Header/Confirmation/From, 1C's own):",
    `#   enterpriseData: { node: ${code(header.to)}, peer: ${code(header.from)} }`,
    '#',
    "# SITE: the four values marked SITE are placeholders. Put your purchasing department's own here before",
    '# the requests go to the real platform.',
    ...warnings.map((warning) => `# WARNING: ${phraseEnglish(warning)}`),
    'kind: requests',
    'preset: enterprisedata',
    'request:',
    ...ENTERPRISEDATA_SITE_DEFAULTS.flatMap((site) => siteLines(site, orders, empty.get(`request.${site.name}`) ?? 0)),
    ...todo.filter((field) => field.key.startsWith('request.')).map((field) => `  # TODO ${todoLine(field, 'request')}`),
  ];
  const items = todo.filter((field) => field.key.startsWith('items.'));
  if (items.length > 0) lines.push('# TODO items:', ...items.map((field) => `#   ${todoLine(field, 'items')}`));
  return `${lines.join('\n')}\n`;
}

function siteLines(site: SiteDefault, orders: number, missing: number): string[] {
  const inSample = 'default' in site.spec && missing > 0 ? [`(In the sample, it stands in for ${missing} of ${ordersText(orders)}.)`] : [];
  return [...[...site.comment, ...inSample].map((line) => `  # ${line}`), `  ${site.name}: ${inline(site.spec)}`];
}

function todoLine(field: FieldSuggestion, section: string): string {
  return `${field.key.slice(section.length + 1)}: { default: "?" }  # ${field.required ? 'required' : 'optional'}; ${phraseEnglish(field.reason)}`;
}
