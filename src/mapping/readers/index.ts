/** The reader of each input format: the one place a new format is added. */
import { csvReader } from './csv-reader.js';
import { jsonReader, ndjsonReader } from './json-reader.js';
import type { Reader } from './types.js';

export const READERS = {
  csv: csvReader,
  json: jsonReader,
  ndjson: ndjsonReader,
} as const satisfies Record<string, Reader>;

export type InputFormat = keyof typeof READERS;
