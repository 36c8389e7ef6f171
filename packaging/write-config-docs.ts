/**
 * `npm run docs`: writes the key reference of `docs/configuration.md` (every key of the config with
 * its type, default and allowed values) between its marker comments, from the config's JSON Schema
 * (`packaging/config-key-reference.ts`). Run it after changing the config schema, with
 * `npm run schemas`, and commit the result; `test/docs/config-reference.test.ts` fails while the
 * committed table differs from what the schema gives now.
 *
 *   npm run docs          (builds, then runs node dist/packaging/write-config-docs.js)
 */
import fs from 'node:fs';
import path from 'node:path';
import { jsonSchemaOf } from '../src/config/json-schema.js';
import { programRoot } from '../src/config/schema-files.js';
import { configKeyReference, withReference } from './config-key-reference.js';

const file = path.join(programRoot(), 'docs', 'configuration.md');
const before = fs.readFileSync(file, 'utf8');
const after = withReference(before, configKeyReference(jsonSchemaOf('config')));
if (after === before) {
  console.log(`${path.relative(process.cwd(), file)} is up to date`);
} else {
  fs.writeFileSync(file, after);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
