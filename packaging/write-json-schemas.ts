/**
 * `npm run schemas`: writes `schemas/<name>.schema.json`, the JSON Schemas of the config and mapping
 * files that editors read, from the zod schemas (`src/config/json-schema.ts`). Run it after
 * changing a config or mapping schema and commit the result; `test/config/json-schema-files.test.ts`
 * fails while a committed file differs from what the schemas give now. The files ship in the
 * release tree and the .deb (`/opt/procurement-connector/schemas/`).
 *
 *   npm run schemas          (builds, then runs node dist/packaging/write-json-schemas.js)
 *
 * Laid out by Prettier, as every other JSON file of the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { jsonSchemaOf } from '../src/config/json-schema.js';
import { JSON_SCHEMA_NAMES, SCHEMAS_DIR, programRoot, schemaFileName } from '../src/config/schema-files.js';

const dir = path.join(programRoot(), SCHEMAS_DIR);
fs.mkdirSync(dir, { recursive: true });
for (const name of JSON_SCHEMA_NAMES) {
  const file = path.join(dir, schemaFileName(name));
  const options = (await prettier.resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await prettier.format(JSON.stringify(jsonSchemaOf(name)), { ...options, filepath: file }));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
