/** The export stage: pending export rows → files in ERP import folders. */
export { createExporter, type Exporter, type ExporterDeps, type ExportTarget } from './create-exporter.js';
export { loadExportFormat, statusExportTarget } from './load-export-format.js';
export { renderExportBytes, renderExportFile, type ExportMode } from './render-file.js';
export { renderFileName, sanitiseFileName } from './file-name.js';
