/**
 * JSON Schemas of the config and mapping files, for editors: the YAML language server (VS Code's
 * YAML extension, and the editors that embed it) reads the `# yaml-language-server: $schema=…`
 * line at the top of a file and then completes keys, shows their descriptions and underlines
 * mistakes as they are typed. They are generated from the zod schemas the daemon validates with,
 * so they cannot drift from what `check` accepts; `schemas/*.schema.json` are this module's output
 * (`npm run schemas`), and a test keeps them equal to it.
 *
 * The input side of each zod schema (a key with a default may be left out), as draft-07, the
 * newest draft every YAML language server release reads. What zod cannot say in JSON Schema is
 * added here, from the same sources the loaders use:
 * - a mapping's `acknowledgements:` is `z.unknown()` in zod (load-mapping validates it apart, after
 *   its default is chosen); here it is the export format schema itself;
 * - `preset:` supplies the request fields (`presets/`), so with it none of them is required;
 * - a config secret may be a reference object (`{ fromCredential: … }`) in place of the string, and
 *   a checked string (a pattern, an enum, a URL) may be a `${VAR}` that `loadConfig` substitutes.
 *   (`loadConfig` resolves a reference at any key; the schema offers one at the secrets only, where
 *   the example config and docs/configuration.md use them, rather than beside every string.)
 *
 * What the schemas do not check, and `check` does: zod refinements (exactly one source per field,
 * `upper` with `lower`, `date` with `number`, cron expressions, CIDR ranges, file name placeholders,
 * sheet names, duplicate flow names, `export` required with `webhook`, a secret while
 * `requireSignature`, a TLS key that fits its certificate, a section beside another export format)
 * and load-mapping's cross checks (sources that fit the format, date formats, XML paths,
 * `record`/`lines` for XML only, `groupBy` for tables, `fillDown` columns).
 */
import { z } from 'zod';
import { configSchema } from './schema.js';
import { consoleSchema } from './console-schema.js';
import { exportFormatSchema } from './export-format-schema.js';
import { flowSchema } from './flow-schema.js';
import { confirmationsMappingSchema, fieldSpecSchema, MAPPING_KIND, requestsMappingSchema, type MappingKind } from './mapping-schema.js';
import { platformSchema } from './platform-schema.js';
import { PRESETS } from './presets/index.js';
import { sandboxSchema } from './service-schema.js';
import { tlsSchema, webhookSchema } from './webhook-schema.js';
import { JSON_SCHEMA_NAMES, type JsonSchemaName } from './schema-files.js';

export { JSON_SCHEMA_NAMES, type JsonSchemaName };

type Json = Record<string, unknown>;

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** What each file is, for the schema's title and description (an editor shows them on the file). */
const ABOUT: Record<JsonSchemaName, { title: string; description: string }> = {
  config: {
    title: 'procurement-connector config',
    description: 'The daemon config (connector.yaml): the platform, the flows, delivery, the webhook, the export, the service keys.',
  },
  mapping: {
    title: 'procurement-connector mapping',
    description: 'A flow mapping, either kind: requests (a `request:` section) or confirmations (`orderId:` and a `confirmation:` section).',
  },
  'mapping-requests': {
    title: 'procurement-connector requests mapping',
    description: 'How an ERP file (CSV, XLSX, JSON, NDJSON, XML) becomes buyer requests; `preset: commerceml` supplies the fields of a CommerceML export.',
  },
  'mapping-confirmations': {
    title: 'procurement-connector confirmations mapping',
    description: "How a supplier's file becomes order confirmations.",
  },
  'status-export': {
    title: 'procurement-connector status export format',
    description: "The status export mapping (export.mapping): the format, file name and columns of the files written into the ERP's import folder.",
  },
  acknowledgements: {
    title: 'procurement-connector acknowledgements format',
    description: 'The `acknowledgements:` section of a flow mapping: the format, file name and columns of the result files (the status export format).',
  },
};

/** The JSON Schema of one kind of file. A fresh object on each call. */
export function jsonSchemaOf(name: JsonSchemaName): Json {
  const { title, description } = ABOUT[name];
  const body = generate(name);
  const { $schema: _draft, ...rest } = body;
  return { $schema: DRAFT_07, $id: `urn:procurement-connector:schema:${name}`, title, description, ...rest };
}

function generate(name: JsonSchemaName): Json {
  switch (name) {
    case 'config':
      return configJsonSchema();
    case 'mapping': {
      // Either kind, each under its own name, as the kinds' own schemas have them.
      const requests = mappingForJson('requests');
      const confirmations = mappingForJson('confirmations');
      const names: [z.core.$ZodType, string][] = [
        [requests, 'mapping-requests'],
        [confirmations, 'mapping-confirmations'],
      ];
      const json = toJson(z.union([requests, confirmations]), { names });
      presetSuppliesFields((json.definitions as Record<string, Json>)['mapping-requests']!);
      return json;
    }
    case 'mapping-requests':
      return presetSuppliesFields(toJson(mappingForJson('requests')));
    case 'mapping-confirmations':
      return toJson(mappingForJson('confirmations'));
    case 'status-export':
    case 'acknowledgements':
      return toJson(exportFormatSchema);
  }
}

// --- mappings ---------------------------------------------------------------------------------

const acknowledgementsSection = exportFormatSchema
  .optional()
  .describe('How results are written back for this flow. Default: CSV in the input encoding and delimiter.');

/** The mapping of one kind as its file is written: `acknowledgements:` composed, `preset:` only where a preset of its kind exists. */
function mappingForJson(kind: MappingKind): z.core.$ZodType {
  const base: z.ZodObject = kind === MAPPING_KIND.requests ? requestsMappingSchema : confirmationsMappingSchema;
  const withSection = base.extend({ acknowledgements: acknowledgementsSection });
  // A preset brings the sections of its own kind, which the other kind refuses (commerceml is a
  // requests preset: a confirmations mapping naming it fails `check`), so the key is left out there.
  const hasPreset = Object.values(PRESETS).some((preset) => preset.kind === kind);
  return hasPreset ? withSection : withSection.omit({ preset: true });
}

/**
 * `preset:` is applied before the mapping is validated (`applyPreset`), so a mapping that names one
 * needs none of the fields the preset supplies: every `required` of the requests mapping (its
 * sections and their fields) holds only when there is no `preset:`. A preset supplies every field,
 * so an `if`/`else` on the key says it exactly, where an `anyOf` of a loose and a strict branch
 * would leave an editor guessing which branch a mistake belongs to.
 */
function presetSuppliesFields(mapping: Json): Json {
  const properties = mapping.properties as Record<string, Json>;
  const unless: Json = { required: mapping.required, properties: {} };
  delete mapping.required;
  for (const [key, section] of Object.entries(properties)) {
    if (!Array.isArray(section.required)) continue;
    (unless.properties as Record<string, Json>)[key] = { type: 'object', required: section.required };
    delete section.required;
  }
  mapping.if = { required: ['preset'] };
  mapping.else = unless;
  return mapping;
}

// --- the config -------------------------------------------------------------------------------

/** The config's secrets (the values `loadConfig` registers for redaction): each may be a reference object. */
const SECRETS: ReadonlySet<z.core.$ZodType> = new Set<z.core.$ZodType>([
  platformSchema.shape.token,
  flowSchema.shape.token.unwrap(),
  webhookSchema.shape.secrets.unwrap().element,
  tlsSchema.shape.cert,
  tlsSchema.shape.key,
  sandboxSchema.shape.supplierToken.unwrap(),
  consoleSchema.shape.password.unwrap(),
]);
const SECRET_MARK = 'x-procurement-connector-secret';

const SECRET_REFERENCE: Json = {
  description: 'A secret read at start: { fromCredential: name } ($CREDENTIALS_DIRECTORY/name), { fromFile: path } or { fromEnv: VAR }.',
  type: 'object',
  properties: Object.fromEntries(['fromCredential', 'fromFile', 'fromEnv'].map((key) => [key, { type: 'string', minLength: 1 }])),
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
};
const ENV_REFERENCE: Json = {
  description: 'A value taken from the environment when the config loads: ${VAR} or ${VAR:-fallback}.',
  type: 'string',
  pattern: '\\$\\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\\}',
};

function configJsonSchema(): Json {
  const json = toJson(configSchema, {
    // Marked here, where the zod schema is known, and rewritten below once the JSON is whole.
    override: ({ zodSchema, jsonSchema }) => {
      if (SECRETS.has(zodSchema)) jsonSchema[SECRET_MARK] = true;
    },
  });
  const definitions = { ...((json.definitions as Json | undefined) ?? {}), secretReference: SECRET_REFERENCE, environmentReference: ENV_REFERENCE };
  return { ...(walk(json, configAlternatives) as Json), definitions };
}

/**
 * `loadConfig` substitutes `${VAR}` in any string and resolves a secret reference object before
 * zod sees the value: a string the schema checks (a pattern, an enum, a URL) may be written as a
 * `${VAR}`, and a secret as a reference.
 */
function configAlternatives(node: Json): Json {
  const secret = node[SECRET_MARK] === true;
  const checked = node.type === 'string' && ['pattern', 'enum', 'const', 'format'].some((key) => key in node);
  if (!secret && !checked) return node;
  const { [SECRET_MARK]: _mark, description, default: fallback, ...own } = node;
  const anyOf = [own];
  if (checked) anyOf.push({ $ref: '#/definitions/environmentReference' });
  if (secret) anyOf.push({ $ref: '#/definitions/secretReference' });
  return { ...(description === undefined ? {} : { description }), ...(fallback === undefined ? {} : { default: fallback }), anyOf };
}

// --- generation -------------------------------------------------------------------------------

/** The global registry (`.describe()`, `.meta()`) with definition names on top: a named schema is written once, under `definitions`. */
class NamedRegistry extends z.core.$ZodRegistry<z.core.GlobalMeta> {
  constructor(private readonly names: ReadonlyMap<z.core.$ZodType, string>) {
    super();
  }
  override get(schema: z.core.$ZodType): z.core.GlobalMeta | undefined {
    const meta = z.globalRegistry.get(schema);
    const id = this.names.get(schema);
    return id === undefined ? meta : { ...meta, id };
  }
}

type Override = NonNullable<Parameters<typeof z.toJSONSchema>[1]>['override'];

interface ToJsonOptions {
  /** More schemas to write once under `definitions`, by name. */
  names?: readonly [z.core.$ZodType, string][];
  override?: Override;
}

function toJson(schema: z.core.$ZodType, { names = [], override }: ToJsonOptions = {}): Json {
  // The field spec is used by every field of a mapping, the export format by `acknowledgements:`.
  const named = new Map<z.core.$ZodType, string>([[fieldSpecSchema, 'fieldSpec'], [acknowledgementsSection.unwrap(), 'exportFormat'], ...names]);
  named.delete(schema); // the root stays the root
  const json = z.toJSONSchema(schema, {
    target: 'draft-07',
    io: 'input',
    // A transform or a refinement has no JSON Schema; its input side is what the file holds.
    unrepresentable: 'any',
    metadata: new NamedRegistry(named),
    ...(override ? { override } : {}),
  }) as Json;
  return walk(json, tidy) as Json;
}

/** Formats JSON Schema defines (zod writes its own, such as `starts_with`, beside the pattern that checks it). */
const STANDARD_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'uuid', 'regex']);

/** Drops what only adds noise: non-standard formats and the ±2^53 bounds zod gives every integer. */
function tidy(node: Json): Json {
  const out = { ...node };
  if (typeof out.format === 'string' && !STANDARD_FORMATS.has(out.format)) delete out.format;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  return out;
}

/** Keywords whose value is a map of schemas by name, not a schema. */
const SCHEMA_MAPS = new Set(['properties', 'definitions', 'patternProperties']);
/** Keywords whose value is data, not schemas. */
const VALUES = new Set(['default', 'const', 'enum', 'examples', 'required']);

/** Applies `visit` to every schema in `schema`, children first. */
function walk(schema: unknown, visit: (node: Json) => Json): unknown {
  if (Array.isArray(schema)) return schema.map((item) => walk(item, visit));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, child] of Object.entries(schema)) {
    if (VALUES.has(key)) out[key] = child;
    else if (SCHEMA_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(child as Json).map(([name, sub]) => [name, walk(sub, visit)]));
    else out[key] = walk(child, visit);
  }
  return visit(out);
}
