/**
 * A preset tried on the whole sample, as the daemon would map it: how many documents (requests) the
 * sample holds, and in how many of them each required field is empty. The XML suggesters write a
 * TODO line (or a site's default) for what the preset leaves empty, and a summary of the rest.
 */
import type { MappingSpec } from '../../config/mapping-schema.js';
import { ConnectorError } from '../../errors.js';
import type { OpenedInput } from '../../shared/input-file.js';
import { mapFile } from '../map-file.js';

export interface PresetRun {
  /** Documents read, mapped or with a problem. */
  documents: number;
  /** By target key (`request.delivery.city`, `items.unit`), the documents in which the field is required and empty. */
  empty: Map<string, number>;
}

/**
 * Map `input` with `spec`. A file the preset does not read (another root element) is
 * `{ unsupported: why }`; any other problem with the whole file is thrown, as the preview would report it.
 */
export async function tryPreset(input: OpenedInput, spec: MappingSpec, fileName: string, now: Date): Promise<PresetRun | { unsupported: string }> {
  const rows = new Set<number>();
  const empty = new Map<string, Set<number>>();
  for await (const item of mapFile(input, spec, { now, rejectPastDates: false, fileLabel: fileName })) {
    if (item.kind === 'submission') {
      rows.add(item.submission.firstRow);
      continue;
    }
    if (item.kind === 'withdrawal') continue;
    const { problem } = item;
    if (problem.row === null) {
      if (problem.code === 'FILE_FORMAT_UNSUPPORTED') return { unsupported: problem.message };
      throw new ConnectorError(problem.code, problem.message);
    }
    rows.add(problem.row);
    if (problem.code !== 'FIELD_REQUIRED' || problem.field === null) continue;
    const line = /^items\[\d+\]\.(.+)$/.exec(problem.field)?.[1];
    const target = line === undefined ? `request.${problem.field}` : `items.${line}`;
    if (!empty.has(target)) empty.set(target, new Set());
    empty.get(target)!.add(problem.row);
  }
  return { documents: rows.size, empty: new Map([...empty].map(([key, documents]) => [key, documents.size])) };
}
