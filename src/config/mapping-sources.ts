/**
 * What a mapping reads, read off the spec alone: the columns of a table mapping, whether it reads
 * columns or paths, and the format that implies when `format:` is not set. The loader checks a
 * mapping with these; the mapping stage compiles it with the same ones.
 */
import type { FieldSpec, InputFormat, MappingSpec } from './mapping-schema.js';

/** The spec field that keys a group: externalId for requests, orderId for confirmations. */
export function keyFieldOf(spec: MappingSpec): FieldSpec {
  return spec.kind === 'requests' ? spec.header.externalId! : spec.orderId;
}

/** The column that groups table rows: `groupBy`, else the key field's column. */
export function groupColumnOf(spec: MappingSpec): string | undefined {
  return spec.groupBy ?? keyFieldOf(spec).column;
}

function fieldsOf(spec: MappingSpec): [string, FieldSpec][] {
  const section = spec.kind === 'requests' ? 'request' : 'confirmation';
  const out: [string, FieldSpec][] = [];
  if (spec.kind === 'confirmations') out.push(['orderId', spec.orderId]);
  for (const [target, field] of Object.entries(spec.header)) out.push([`${section}.${target}`, field]);
  for (const [target, field] of Object.entries(spec.items)) out.push([`items.${target}`, field]);
  if (spec.kind === 'requests') for (const [name, field] of Object.entries(spec.document ?? {})) if (field !== undefined) out.push([`document.${name}`, field]);
  return out;
}

/** Every column a table mapping reads, with the mapping key that names it (for COLUMN_MISSING). */
export function columnsOf(spec: MappingSpec): { column: string; key: string }[] {
  const out: { column: string; key: string }[] = [];
  for (const [key, field] of fieldsOf(spec)) {
    if (field.column !== undefined) out.push({ column: field.column, key });
    for (const match of field.template?.matchAll(/\{([^{}]+)\}/g) ?? []) out.push({ column: match[1]!, key: `${key}.template` });
    field.parts?.forEach((part, index) => {
      if (part.column !== undefined) out.push({ column: part.column, key: `${key}.parts.${index}` });
      if (part.unlessSameAs !== undefined) out.push({ column: part.unlessSameAs, key: `${key}.parts.${index}.unlessSameAs` });
    });
  }
  const group = groupColumnOf(spec);
  if (spec.groupBy !== undefined && group !== undefined) out.push({ column: group, key: 'groupBy' });
  return out;
}

export function usesColumns(spec: MappingSpec): boolean {
  return spec.groupBy !== undefined || fieldsOf(spec).some(([, field]) => field.column !== undefined || field.parts?.some((part) => part.column !== undefined));
}

export function usesPaths(spec: MappingSpec): boolean {
  return spec.record !== undefined || fieldsOf(spec).some(([, field]) => field.path !== undefined || field.parts?.some((part) => part.path !== undefined));
}

/**
 * The format a mapping implies before any file is seen: its `format:`, else XML for a `record:`,
 * JSON for paths alone, CSV for columns alone (a file's extension may still pick XLSX for columns,
 * or NDJSON and XML for paths); undefined when it reads neither, or both.
 */
export function formatOfSpec(spec: MappingSpec): InputFormat | undefined {
  if (spec.format !== undefined) return spec.format;
  if (spec.record !== undefined) return 'xml';
  const columns = usesColumns(spec);
  const paths = usesPaths(spec);
  if (paths && !columns) return 'json';
  if (columns && !paths) return 'csv';
  return undefined;
}
