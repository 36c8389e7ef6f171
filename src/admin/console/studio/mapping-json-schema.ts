/**
 * The JSON Schema the mapping page's editor completes and checks with: the flow kind's mapping
 * schema, exactly what `procurement-connector schema mapping-requests` prints and `schemas/`
 * ships (generated from the zod schemas the daemon validates with; never a second schema). Made
 * once per kind and kept, with an ETag: it changes only with the program.
 */
import { createHash } from 'node:crypto';
import type { FlowKind } from '../../../config/flow-schema.js';
import { jsonSchemaOf } from '../../../config/json-schema.js';

export interface MappingJsonSchema {
  body: string;
  etag: string;
}

const made = new Map<FlowKind, MappingJsonSchema>();

export function mappingJsonSchema(kind: FlowKind): MappingJsonSchema {
  let schema = made.get(kind);
  if (schema === undefined) {
    const body = JSON.stringify(jsonSchemaOf(kind === 'requests' ? 'mapping-requests' : 'mapping-confirmations'));
    schema = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
    made.set(kind, schema);
  }
  return schema;
}
