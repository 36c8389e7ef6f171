/** What the exporter writes, and where: the status files and each flow's acknowledgements. */
import type { ExportFormat } from '../config/export-format-schema.js';
import type { Config } from '../config/schema.js';
import { statusExportTarget, type ExportTarget } from '../export/index.js';
import { ackChannel } from '../store/exports.js';

/**
 * The status files first (with `export:`; their format is read from `export.mapping` here), then
 * each flow's acknowledgements, a file per event in its `results` folder, in the format its mapping
 * gives (`ackFormats`, by channel).
 */
export function exportTargets(config: Config, ackFormats: ReadonlyMap<string, ExportFormat>): ExportTarget[] {
  const status = config.export ? [statusExportTarget(config.export)] : [];
  const acks = config.flows.map((flow): ExportTarget => ({
    channel: ackChannel(flow.name),
    folder: flow.results,
    format: ackFormats.get(ackChannel(flow.name))!,
    mode: 'perEvent',
  }));
  return [...status, ...acks];
}

/** The folders the targets write, each once: status files and acknowledgements often share the ERP's import folder. */
export function exportFolders(targets: readonly ExportTarget[]): string[] {
  return [...new Set(targets.map((target) => target.folder))];
}
