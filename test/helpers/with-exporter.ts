/** Fixtures for exporter tests: a real SQLite file and a real import folder. */
import path from 'node:path';
import { openStore, type Db } from '../../src/store/open-store.js';
import { createExporter, type Exporter, type ExporterDeps, type ExportTarget } from '../../src/export/create-exporter.js';
import { exportFormatSchema, type ExportFormat } from '../../src/config/export-format-schema.js';
import { enqueueExport } from '../../src/store/exports.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from './temp-dir.js';

export interface ExporterContext {
  db: Db;
  dir: string;
  folder: string;
  dbFile: string;
  /** Create (and track, for cleanup) an exporter over the test's db. */
  makeExporter(targets: ExportTarget[], options?: Partial<Pick<ExporterDeps, 'clock' | 'logger' | 'pollIntervalMs' | 'durable' | 'metrics'>>): Exporter;
}

export async function withExportStore<T>(fn: (ctx: ExporterContext) => Promise<T>): Promise<T> {
  return withTempDir(async (dir) => {
    const dbFile = path.join(dir, 'state', 'connector.sqlite');
    const db = openStore(dbFile);
    const exporters: Exporter[] = [];
    const folder = path.join(dir, 'erp', 'import');
    try {
      return await fn({
        db,
        dir,
        folder,
        dbFile,
        makeExporter(targets, options = {}) {
          const exporter = createExporter({
            db,
            targets,
            logger: options.logger ?? silentLogger,
            clock: options.clock,
            pollIntervalMs: options.pollIntervalMs,
            durable: options.durable,
            metrics: options.metrics,
          });
          exporters.push(exporter);
          return exporter;
        },
      });
    } finally {
      for (const exporter of exporters) await exporter.stop();
      if (db.open) db.close();
    }
  });
}

export function csvFormat(raw: Record<string, unknown> = {}): ExportFormat {
  return exportFormatSchema.parse({
    fileName: 'status-{seq}.csv',
    csv: { encoding: 'utf-8', delimiter: ';', lineEnding: 'lf' },
    columns: { order: { field: 'orderId' }, status: { field: 'status' } },
    ...raw,
  });
}

let nextKey = 1;
export function enqueueStatus(db: Db, orderId: string, status = 'shipped', channel = 'status'): string {
  const sourceKey = `EVT-${String(nextKey++).padStart(6, '0')}`;
  enqueueExport(db, { channel, sourceKey, record: { eventId: sourceKey, orderId, status, eventDate: '2026-06-12T10:15:00+03:00' }, now: 1 });
  return sourceKey;
}
