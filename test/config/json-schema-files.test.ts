/**
 * `schemas/*.schema.json` are generated (`npm run schemas`) and committed, so that an editor in a
 * checkout finds them without a build: they must be what the zod schemas give now, every one of
 * them and nothing else, and each must compile as the draft it declares.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonSchemaOf } from '../../src/config/json-schema.js';
import { requestsMappingSchema } from '../../src/config/mapping-schema.js';
import { PRESETS } from '../../src/config/presets/index.js';
import { JSON_SCHEMA_NAMES, SCHEMAS_DIR, schemaFileName } from '../../src/config/schema-files.js';
import { REPO } from '../helpers/with-daemon.js';
import { schemaFile, validatorFor } from '../helpers/schema-validator.js';

describe('schemas/', () => {
  it.each(JSON_SCHEMA_NAMES)('%s.schema.json is what the generator gives now (run `npm run schemas` after changing a schema)', (name) => {
    const committed = JSON.parse(fs.readFileSync(schemaFile(name), 'utf8')) as unknown;
    // Compared as text, so that the order of keys (which an editor shows) counts too.
    expect(JSON.stringify(committed, null, 2)).toBe(JSON.stringify(jsonSchemaOf(name), null, 2));
  });

  it('holds one file per schema name and nothing else', () => {
    expect(fs.readdirSync(path.join(REPO, SCHEMAS_DIR)).sort()).toEqual(JSON_SCHEMA_NAMES.map(schemaFileName).sort());
  });

  it.each(JSON_SCHEMA_NAMES)('%s compiles under ajv in strict mode, with its own $id, title and description', (name) => {
    const schema = JSON.parse(fs.readFileSync(schemaFile(name), 'utf8')) as Record<string, unknown>;
    expect(schema).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', $id: `urn:procurement-connector:schema:${name}` });
    expect(schema.title).toEqual(expect.any(String));
    expect(schema.description).toEqual(expect.any(String));
    expect(() => validatorFor(schemaFile(name))).not.toThrow();
  });

  it('describes the top-level keys of the config and the mappings, for an editor to show', () => {
    for (const name of ['config', 'mapping-requests', 'mapping-confirmations', 'status-export'] as const) {
      const properties = jsonSchemaOf(name).properties as Record<string, { description?: string }>;
      const bare = Object.entries(properties).filter(([key, property]) => key !== 'kind' && !property.description);
      expect(
        bare.map(([key]) => key),
        name,
      ).toEqual([]);
    }
  });

  // The requests schema drops every required field when `preset:` is set (an if/else), which is
  // right only while each preset supplies a whole mapping: a preset that left a field out would
  // let the schema pass a mapping that `check` refuses.
  it.each(Object.keys(PRESETS))('preset %s is a whole requests mapping by itself', (name) => {
    const parsed = requestsMappingSchema.safeParse(PRESETS[name]);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });
});
