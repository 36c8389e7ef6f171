/**
 * What the mapping page's upload takes: the formats the flow's mapping reads, named on its label
 * and offered by the file picker (`accept`). A mapping with `format:` (a preset sets it: CommerceML
 * and EnterpriseData are XML) reads that one whatever the file's extension; one without reads each
 * by its extension, so every format is offered. 1C may compress its EnterpriseData messages, so a
 * flow with `enterpriseData` also takes ZIP.
 */
import type { FlowConfig } from '../../../config/flow-schema.js';
import { INPUT_FORMATS, type InputFormat } from '../../../config/mapping-schema.js';
import { checkMappingText } from './check-mapping.js';

/** The file names each format is read from without `format:` (`mapping/map-file.ts`); any other name is read as CSV. */
const EXTENSIONS: Readonly<Record<InputFormat | 'zip', readonly string[]>> = {
  csv: ['.csv', '.tsv', '.txt'],
  json: ['.json'],
  ndjson: ['.ndjson', '.jsonl'],
  xlsx: ['.xlsx', '.xlsm'],
  xml: ['.xml'],
  zip: ['.zip'],
};

export interface UploadFormats {
  /** For the label: `CSV, JSON, NDJSON, XLSX, XML`. */
  names: string;
  /** For the file input: `.csv,.tsv,…`. */
  accept: string;
}

/** The formats a flow reads with `format` (its mapping's, when set), with ZIP for an EnterpriseData exchange. */
export function uploadFormats(format: InputFormat | undefined, zipped: boolean): UploadFormats {
  const formats: (InputFormat | 'zip')[] = [...(format ? [format] : INPUT_FORMATS), ...(zipped ? ['zip' as const] : [])];
  return {
    names: formats.map((name) => name.toUpperCase()).join(', '),
    accept: formats.flatMap((name) => EXTENSIONS[name]).join(','),
  };
}

/** The formats the flow reads with the mapping in the editor (every format while that does not load). */
export function uploadFormatsOf(flow: FlowConfig, mappingText: string): UploadFormats {
  const check = checkMappingText(mappingText, flow);
  return uploadFormats(check.ok ? check.spec.format : undefined, flow.enterpriseData !== undefined);
}
