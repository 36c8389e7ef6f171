/**
 * Mapping-test helpers: the fixed clock, the spec from YAML-shaped data, writing an input file,
 * collecting what `mapFile` yields. The rows and the mapping are the shared fixtures of
 * `test/helpers/fixtures.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { parseMappingSpec } from '../../src/config/load-mapping.js';
import type { MappingSpec } from '../../src/config/mapping-schema.js';
import { mapFile, type MapOptions } from '../../src/mapping/map-file.js';
import type { MappedItem, MappedSubmission } from '../../src/mapping/types.js';
import { type MappingProblem } from '../../src/shared/types.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const NOW = new Date(2026, 5, 12, 12, 0, 0); // 12 June 2026, local noon
export const OPTIONS: MapOptions = { now: NOW, rejectPastDates: true };

export function specOf(raw: Record<string, unknown>, file = 'test-mapping.yaml'): MappingSpec {
  return parseMappingSpec(raw, file);
}

/** Write `content` (a string in `encoding`, or bytes) to `dir/name`; returns the path. */
export function writeInput(dir: string, name: string, content: string | Buffer, encoding: 'utf-8' | 'windows-1251' = 'utf-8'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === 'string' ? (encoding === 'utf-8' ? Buffer.from(content, 'utf8') : iconv.encode(content, 'win1251')) : content);
  return file;
}

export async function collect(file: string, spec: MappingSpec, options: Partial<MapOptions> = {}): Promise<MappedItem[]> {
  const out: MappedItem[] = [];
  for await (const item of mapFile(file, spec, { ...OPTIONS, ...options })) out.push(item);
  return out;
}

export async function split(file: string, spec: MappingSpec, options: Partial<MapOptions> = {}) {
  const items = await collect(file, spec, options);
  const submissions: MappedSubmission[] = [];
  const problems: MappingProblem[] = [];
  for (const item of items) {
    if (item.kind === 'submission') submissions.push(item.submission);
    else if (item.kind === 'problem') problems.push(item.problem);
  }
  return { items, submissions, problems };
}
