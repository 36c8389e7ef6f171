/** Where and how one export channel's files are written. */
import type { ExportFormat } from '../config/export-format-schema.js';
import type { ExportMode } from './render-file.js';

/** One export channel and where and how its files are written. */
export interface ExportTarget {
  /** `STATUS_CHANNEL`, or `ackChannel(flow.name)`. */
  channel: string;
  /** The ERP import folder; created when missing. */
  folder: string;
  format: ExportFormat;
  mode: ExportMode;
}
