/**
 * Where the JSON Schemas of the config and mapping files are: `schemas/<name>.schema.json` at the
 * root of the program (a checkout, the release tree, `/opt/procurement-connector`). A file points
 * an editor at its schema with a first line `# yaml-language-server: $schema=<path>`, a YAML
 * comment the daemon never reads. Kept apart from `json-schema.ts`, which loads every zod schema,
 * so that writing the line costs little.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The schemas `procurement-connector schema` prints and `schemas/` holds, one per kind of file. */
export const JSON_SCHEMA_NAMES = ['config', 'mapping', 'mapping-requests', 'mapping-confirmations', 'status-export', 'acknowledgements'] as const;
export type JsonSchemaName = (typeof JSON_SCHEMA_NAMES)[number];

/** The folder of the schema files, relative to the program's root. */
export const SCHEMAS_DIR = 'schemas';

export function schemaFileName(name: JsonSchemaName): string {
  return `${name}.schema.json`;
}

/**
 * The program's root: the nearest folder above this module that holds a package.json
 * (`<root>/src/config/` under the test runner, `<root>/dist/src/config/` when built), where
 * `schemas/` is; the schemas are not copied into `dist/`.
 */
export function programRoot(moduleUrl: string = import.meta.url): string {
  const start = path.dirname(fileURLToPath(moduleUrl));
  for (let dir = start, level = 0; level <= 4; dir = path.dirname(dir), level += 1) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return path.dirname(path.dirname(start));
}

/** The schema file shipped with this program, by absolute path. */
export function shippedSchemaPath(name: JsonSchemaName): string {
  return path.join(programRoot(), SCHEMAS_DIR, schemaFileName(name));
}

/**
 * How a YAML file names its schema for the YAML language server, first line:
 * `# yaml-language-server: $schema=<reference>`. The server reads the reference up to the first
 * space, so a path with a space in it is written as a file URL.
 */
export function schemaModeline(reference: string): string {
  return `# yaml-language-server: $schema=${/\s/.test(reference) ? pathToFileURL(reference).href : reference}`;
}
