/** The reader of each input format: the one place a new format is added. */
import type { InputFormat } from '../../config/mapping-schema.js';
import { csvReader } from './csv-reader.js';
import { jsonReader, ndjsonReader } from './json-reader.js';
import type { Reader } from './types.js';
import { xlsxReader } from './xlsx-reader.js';
import { xmlReader } from './xml-reader.js';

export const READERS: Readonly<Record<InputFormat, Reader>> = {
  csv: csvReader,
  json: jsonReader,
  ndjson: ndjsonReader,
  xlsx: xlsxReader,
  xml: xmlReader,
};

export type { InputFormat };
