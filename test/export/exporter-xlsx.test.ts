/**
 * Workbooks end to end, through the real exporter into a real folder: an acknowledgement of a flow
 * that reads xlsx (its default format), a status file from a signed webhook, a batch, and the
 * export's promise that a file holding exactly our bytes is our own earlier write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { exportFormatSchema, type ExportFormat } from '../../src/config/export-format-schema.js';
import { loadMappingSpec } from '../../src/config/load-mapping.js';
import { createExporter, type Exporter } from '../../src/export/create-exporter.js';
import { renderExportBytes } from '../../src/export/render-file.js';
import { silentLogger } from '../../src/log.js';
import { assignExportFileName, countExports, enqueueExport } from '../../src/store/exports.js';
import type { Db } from '../../src/store/open-store.js';
import { requestMapping } from '../helpers/fixtures.js';
import { listFiles } from '../helpers/files.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { enqueueStatus, withExportStore } from '../helpers/with-exporter.js';
import { buildEvent, postWebhook, withListener } from '../helpers/with-listener.js';
import { readWorkbook, values } from '../helpers/read-workbook.js';

/** A requests mapping that reads workbooks, with no `acknowledgements:` section. */
/** The shared request mapping, read from a workbook. */
const XLSX_MAPPING = YAML.stringify(requestMapping({ format: 'xlsx', csv: undefined }));

/** An acknowledgement record as delivery builds one (`buildAckRecord`). */
const ackRecord = (externalId: string) => ({
  flow: 'requests',
  kind: 'request',
  externalId,
  orderId: null,
  status: 'accepted',
  outcome: 'accepted',
  platformId: 'PRC-REQ-000001',
  createdAt: '2026-06-12T07:15:00Z',
  updatedAt: null,
  httpStatus: 201,
  errorCode: null,
  reasons: [],
  finishedAt: '2026-06-12T07:15:01.000Z',
});

/** The shipped status columns (config/mappings/status-export.yaml), as a workbook. */
const statusXlsx = (raw: Record<string, unknown> = {}): ExportFormat =>
  exportFormatSchema.parse({
    format: 'xlsx',
    xlsx: { sheet: 'Статусы' },
    fileName: 'order-status-{timestamp}-{seq}.xlsx',
    columns: {
      Заказ: { field: 'orderId' },
      Статус: { field: 'status' },
      Дата: { field: 'eventDate', date: 'DD.MM.YYYY HH:mm', timeZone: '+03:00' },
      Событие: { field: 'eventId' },
    },
    ...raw,
  });

const rowOf = (db: Db, id: number) => db.prepare('SELECT state, file_name, error FROM exports WHERE id = ?').get(id) as Record<string, unknown>;

describe('xlsx acknowledgements', () => {
  it('are the default of a flow that reads workbooks, and the exporter writes one per request', async () => {
    await withTempDir(async (mappingDir) => {
      const mappingFile = path.join(mappingDir, 'requests-xlsx.yaml');
      fs.writeFileSync(mappingFile, XLSX_MAPPING);
      const { acknowledgements } = loadMappingSpec(mappingFile);
      expect(acknowledgements).toMatchObject({ format: 'xlsx', fileName: 'ack-{externalId}-{id}.xlsx', xlsx: { sheet: 'Sheet1', header: true } });

      await withExportStore(async ({ db, folder, makeExporter }) => {
        enqueueExport(db, { channel: 'ack:requests', sourceKey: 'ЗК-000102:accepted:1', record: ackRecord('ЗК-000102'), now: 1 });
        await makeExporter([{ channel: 'ack:requests', folder, format: acknowledgements, mode: 'perEvent' }], { pollIntervalMs: 60_000 }).start();

        expect(countExports(db, { state: 'written' })).toBe(1);
        expect(listFiles(folder, { hidden: true })).toEqual(['ack-ЗК-000102-1.xlsx']);
        const book = await readWorkbook(fs.readFileSync(path.join(folder, 'ack-ЗК-000102-1.xlsx')));
        expect(values(book.rows)[0]).toEqual(Object.keys(ackRecord('x')));
        const cells = Object.fromEntries(Object.keys(ackRecord('x')).map((key, i) => [key, book.rows[1]![i]!]));
        expect(cells.externalId).toMatchObject({ type: 'string', value: 'ЗК-000102' });
        expect(cells.outcome).toMatchObject({ type: 'string', value: 'accepted' });
        expect(cells.httpStatus).toMatchObject({ type: 'number', value: 201 });
        expect(cells.orderId).toMatchObject({ type: 'empty' });
        expect(cells.finishedAt).toMatchObject({ type: 'string', value: '2026-06-12T07:15:01.000Z' }); // no date pattern: text, as in CSV
      });
    });
  });

  it('refuse CSV settings beside format xlsx, naming acknowledgements.csv', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'requests-xlsx.yaml');
      fs.writeFileSync(file, `${XLSX_MAPPING}acknowledgements: { format: xlsx, csv: { delimiter: "," }, fileName: "ack-{id}.xlsx" }\n`);
      expect(() => loadMappingSpec(file)).toThrow(
        expect.objectContaining({ code: 'MAPPING_INVALID', message: expect.stringContaining('acknowledgements.csv: is for format csv') }),
      );
    });
  });
});

describe('xlsx status files', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a signed webhook in, one workbook out, with the date as a date', async () => {
    let exporter: Exporter | null = null;
    await withListener({ deps: { onStored: () => exporter?.wake() } }, async ({ url, db, dir }) => {
      const folder = path.join(dir, 'erp', 'import');
      exporter = createExporter({
        db,
        targets: [{ channel: 'status', folder, format: statusXlsx(), mode: 'perEvent' }],
        logger: silentLogger,
        pollIntervalMs: 60_000,
      });
      await exporter.start();
      try {
        const event = buildEvent({ eventDate: '2026-06-12T07:15:00Z', orderId: 'ORD-2026-000042', status: 'shipped' });
        expect((await postWebhook(url, event)).status).toBe(200);
        await waitUntil(() => countExports(db, { state: 'written' }) === 1, 'the status file');
        const files = listFiles(folder, { hidden: true });
        expect(files).toHaveLength(1);
        expect(files[0]).toMatch(/^order-status-\d{14}-000001\.xlsx$/);
        const book = await readWorkbook(fs.readFileSync(path.join(folder, files[0]!)));
        expect(book.name).toBe('Статусы');
        expect(values(book.rows)).toEqual([
          ['Заказ', 'Статус', 'Дата', 'Событие'],
          ['ORD-2026-000042', 'shipped', new Date(Date.UTC(2026, 5, 12, 10, 15)), event.eventId],
        ]);
        expect(book.rows[1]![2]!.numFmt).toBe('dd.mm.yyyy hh:mm');
      } finally {
        await exporter.stop();
      }
    });
  });

  it('batch: every pending row in one workbook on flush', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const exporter = makeExporter([{ channel: 'status', folder, format: statusXlsx({ fileName: 'batch-{seq}.xlsx' }), mode: 'batch' }], {
        pollIntervalMs: 60_000,
      });
      await exporter.start();
      enqueueStatus(db, 'ORD-2026-000001');
      enqueueStatus(db, 'ORD-2026-000002', 'delivered');
      expect(await exporter.flush()).toBe(2);
      expect(listFiles(folder, { hidden: true })).toEqual(['batch-000001.xlsx']);
      const book = await readWorkbook(fs.readFileSync(path.join(folder, 'batch-000001.xlsx')));
      expect(values(book.rows).map((row) => row.slice(0, 2))).toEqual([
        ['Заказ', 'Статус'],
        ['ORD-2026-000001', 'shipped'],
        ['ORD-2026-000002', 'delivered'],
      ]);
    });
  });

  it('count a workbook holding exactly their bytes as their own earlier write (the mark lost), even rendered at another time: no second file', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      const format = statusXlsx();
      enqueueStatus(db, 'ORD-1');
      assignExportFileName(db, [1], 'order-ORD-1.xlsx');
      const record = JSON.parse((db.prepare('SELECT record FROM exports WHERE id = 1').get() as { record: string }).record) as Record<string, unknown>;
      // The first write, a year earlier by the clock; then the power went before its mark.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
      const earlier = await renderExportBytes([record], format, 'perEvent');
      vi.useRealTimers();
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'order-ORD-1.xlsx'), earlier);

      await makeExporter([{ channel: 'status', folder, format, mode: 'perEvent' }], { pollIntervalMs: 60_000 }).start();
      expect(listFiles(folder, { hidden: true })).toEqual(['order-ORD-1.xlsx']);
      expect(rowOf(db, 1)).toEqual({ state: 'written', file_name: 'order-ORD-1.xlsx', error: null });
    });
  });

  it('write nothing when the group commit fails while workbooks render, and leave no rejection unhandled', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-1');
      enqueueStatus(db, 'ORD-2');
      // Fails at once, long before the workbooks are zipped (zlib runs across turns of the loop).
      const durable = () => Promise.reject(new Error('EIO: the store could not commit'));
      const exporter = makeExporter([{ channel: 'status', folder, format: statusXlsx(), mode: 'perEvent' }], { durable, pollIntervalMs: 60_000 });
      await exporter.start();
      expect(await exporter.flush()).toBe(0);
      expect(listFiles(folder, { hidden: true })).toEqual([]);
      expect(countExports(db, { state: 'pending' })).toBe(2);
    });
  });

  it('never replace a workbook someone else put at the name: the rows go to a plain .xlsx name', async () => {
    await withExportStore(async ({ db, folder, makeExporter }) => {
      enqueueStatus(db, 'ORD-1');
      assignExportFileName(db, [1], 'order-ORD-1.xlsx');
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'order-ORD-1.xlsx'), 'the ERP operator saved this');
      const exporter = makeExporter([{ channel: 'status', folder, format: statusXlsx(), mode: 'perEvent' }], { pollIntervalMs: 60_000 });
      await exporter.start();
      await exporter.flush();

      expect(fs.readFileSync(path.join(folder, 'order-ORD-1.xlsx'), 'utf8')).toBe('the ERP operator saved this');
      expect(rowOf(db, 1)).toMatchObject({ state: 'written', file_name: 'status-000001.xlsx', error: expect.stringContaining('EEXIST') });
      expect(values((await readWorkbook(fs.readFileSync(path.join(folder, 'status-000001.xlsx')))).rows)[1]![0]).toBe('ORD-1');
    });
  });
});
