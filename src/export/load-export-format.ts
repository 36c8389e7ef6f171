/** Loading an export mapping (`config/mappings/status-export.yaml`) into an `ExportFormat`. */
import { configError, readYamlFile, zodProblems } from '../config/load-config.js';
import { exportFormatSchema, type ExportFormat } from '../config/export-format-schema.js';
import type { ExportConfig } from '../config/export-schema.js';
import { STATUS_CHANNEL } from '../store/exports.js';
import type { ExportTarget } from './create-exporter.js';

/** Read and validate an export mapping; `MAPPING_INVALID` lists every problem with its key. */
export function loadExportFormat(file: string): ExportFormat {
  const raw = readYamlFile(file, 'export mapping');
  const parsed = exportFormatSchema.safeParse(raw ?? {});
  if (!parsed.success) throw configError(file, zodProblems(parsed.error.issues), 'MAPPING_INVALID');
  return parsed.data;
}

/** The status channel's target from the config's `export:` section (loads its mapping). */
export function statusExportTarget(config: ExportConfig): ExportTarget {
  return { channel: STATUS_CHANNEL, folder: config.folder, format: loadExportFormat(config.mapping), mode: config.mode };
}
