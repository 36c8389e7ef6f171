/**
 * The committed JSON Schemas (`schemas/*.schema.json`, what an editor reads) compiled by ajv: a
 * validator that shares nothing with zod, so that agreeing with `check` means something. Strict
 * mode, so that a keyword ajv does not know (a typo in the generator, a zod extension) fails the
 * compile instead of being ignored; `if` without `then` and union types are standard draft-07.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SCHEMAS_DIR, schemaFileName, type JsonSchemaName } from '../../src/config/schema-files.js';
import { REPO } from './with-daemon.js';

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats.default(ajv);

const compiled = new Map<string, ValidateFunction>();

/** The committed schema file at `file` (absolute), compiled once. */
export function validatorFor(file: string): ValidateFunction {
  let validate = compiled.get(file);
  if (!validate) {
    validate = ajv.compile(JSON.parse(fs.readFileSync(file, 'utf8')) as object);
    compiled.set(file, validate);
  }
  return validate;
}

export function schemaFile(name: JsonSchemaName): string {
  return path.join(REPO, SCHEMAS_DIR, schemaFileName(name));
}

/** The problems ajv finds in `data` under schema `name`, as `path: message` lines; empty when valid. */
export function schemaProblems(name: JsonSchemaName, data: unknown): string[] {
  const validate = validatorFor(schemaFile(name));
  if (validate(data)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}`);
}
