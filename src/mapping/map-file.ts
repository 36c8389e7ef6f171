/**
 * `mapFile`: the mapping stage's one entry point. Reads an input file (CSV, JSON, NDJSON) as its
 * mapping says and yields a submission for each valid request or confirmation and a problem for
 * each thing wrong. A file-level problem (`row: null`: unreadable, wrong encoding, truncated,
 * missing column, broken JSON) ends the stream.
 */
import path from 'node:path';
import type { MappingSpec } from '../config/mapping-schema.js';
import { isConnectorError } from '../errors.js';
import type { BuildContext } from './build-submission.js';
import { mapCsvFile } from './map-csv.js';
import { mapJsonFile } from './map-json.js';
import { makeProblem } from './problems.js';
import type { MappedItem } from './types.js';

export interface MapOptions {
  /** The clock, for "desiredDate not in the past". */
  now: Date;
  /** Reject requests whose delivery.desiredDate lies before today (local time). */
  rejectPastDates: boolean;
  /** How the file is named in messages. Default: its base name. */
  fileLabel?: string;
  /** Stops reading; the generator then throws the signal's reason. */
  signal?: AbortSignal;
}

export type InputFormat = 'csv' | 'json' | 'ndjson';

/** The format of `filePath`: the mapping's `format:`, else by extension (`.json`, `.ndjson`/`.jsonl`, else CSV). */
export function formatOf(filePath: string, spec: MappingSpec): InputFormat {
  if (spec.format !== undefined) return spec.format;
  const ext = path.extname(filePath).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  return 'csv';
}

/** Map one input file. Never throws for a bad file (that is a problem); throws only when aborted. */
export async function* mapFile(filePath: string, spec: MappingSpec, options: MapOptions): AsyncGenerator<MappedItem> {
  const ctx: BuildContext = {
    fileLabel: options.fileLabel ?? path.basename(filePath),
    now: options.now,
    rejectPastDates: options.rejectPastDates,
  };
  const format = formatOf(filePath, spec);
  try {
    options.signal?.throwIfAborted();
    if (format === 'csv') yield* mapCsvFile(filePath, spec, ctx, options.signal);
    else yield* mapJsonFile(filePath, spec, format, ctx, options.signal);
  } catch (error) {
    if (options.signal?.aborted || !isConnectorError(error)) {
      if (!options.signal?.aborted && !isConnectorError(error)) {
        // An unexpected fault is still a file-level problem: intake must be able to reject the file.
        yield fileProblem(ctx.fileLabel, 'MAPPING_FAILED', `could not be mapped: ${(error as Error).message ?? String(error)}`);
        return;
      }
      throw error;
    }
    yield fileProblem(ctx.fileLabel, error.code, error.message);
  }
}

function fileProblem(fileLabel: string, code: Parameters<typeof makeProblem>[1]['code'], reason: string): MappedItem {
  return { type: 'problem', problem: makeProblem(fileLabel, { row: null, field: null, code, reason }) };
}
