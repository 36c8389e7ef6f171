import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExportFormat, statusExportTarget } from '../../src/export/load-export-format.js';
import { exportSchema } from '../../src/config/export-schema.js';
import { isConnectorError } from '../../src/errors.js';
import { withTempDir } from '../helpers/temp-dir.js';

const EXAMPLE = path.resolve('config/mappings/status-export.yaml');

describe('loadExportFormat', () => {
  it('loads the shipped status export example', () => {
    const format = loadExportFormat(EXAMPLE);
    expect(format).toMatchObject({
      format: 'csv',
      fileName: 'order-status-{timestamp}-{seq}.csv',
      csv: { encoding: 'windows-1251', delimiter: ';', header: true, lineEnding: 'crlf' },
    });
    expect(Object.keys(format.columns ?? {})).toEqual(['Заказ', 'Статус', 'Дата', 'Событие']);
    expect(format.columns?.['Дата']).toEqual({ field: 'eventDate', date: 'DD.MM.YYYY HH:mm', timeZone: 'local' });
  });

  it('builds the status target from the export config', () => {
    const config = exportSchema.parse({ folder: '/srv/erp/import', mapping: EXAMPLE });
    expect(statusExportTarget(config)).toMatchObject({ channel: 'status', folder: '/srv/erp/import', mode: 'perEvent', format: { format: 'csv' } });
  });

  it.each([
    ['an unknown key', 'fileName: a.csv\ncolumnz: {}\n', /columnz/],
    ['a missing fileName', 'format: csv\n', /fileName/],
    ['an unknown placeholder', 'fileName: "a-{when}.csv"\n', /\{when\}/],
    ['a bad encoding', 'fileName: a.csv\ncsv: { encoding: koi8-r }\n', /csv\.encoding/],
    ['broken YAML', 'fileName: [a\n', /invalid/],
  ])('throws MAPPING_INVALID naming the key for %s', async (_name, text, message) => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'status-export.yaml');
      fs.writeFileSync(file, text);
      let caught: unknown;
      try {
        loadExportFormat(file);
      } catch (error) {
        caught = error;
      }
      expect(isConnectorError(caught, 'MAPPING_INVALID')).toBe(true);
      expect((caught as Error).message).toMatch(message);
    });
  });

  it('loads an xlsx format with its defaults: sheet Sheet1, a header row', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'status-export.yaml');
      fs.writeFileSync(file, 'format: xlsx\nfileName: "order-status-{seq}.xlsx"\n');
      expect(loadExportFormat(file)).toMatchObject({ format: 'xlsx', xlsx: { sheet: 'Sheet1', header: true } });
      fs.writeFileSync(file, 'format: xlsx\nxlsx: { sheet: "Статусы", header: false }\nfileName: "order-status-{seq}.xlsx"\n');
      expect(loadExportFormat(file).xlsx).toEqual({ sheet: 'Статусы', header: false });
    });
  });

  it.each([
    ['a csv section', 'csv: { delimiter: "," }', /^ {2}csv: is for format csv \(encoding, delimiter, .*\), and this file is xlsx: remove it/m],
    ['a csv encoding', 'csv: { encoding: windows-1251 }', /^ {2}csv: is for format csv/m],
    ['a json encoding', 'json: { encoding: windows-1251 }', /^ {2}json: is for format json \(encoding\), and this file is xlsx/m],
    ['a sheet name Excel refuses', 'xlsx: { sheet: "Итоги [2026]" }', /^ {2}xlsx\.sheet: must not hold \[ \]/m],
    ['a sheet name too long', `xlsx: { sheet: "${'Л'.repeat(32)}" }`, /^ {2}xlsx\.sheet: /m],
    ["a sheet name in '", `xlsx: { sheet: "'Лист'" }`, /^ {2}xlsx\.sheet: must not start or end with '/m],
    ['the reserved sheet name', 'xlsx: { sheet: history }', /^ {2}xlsx\.sheet: History is reserved/m],
    ['an unknown xlsx key', 'xlsx: { sheets: a }', /^ {2}xlsx: Unrecognized key: "sheets"/m],
  ])('refuses format xlsx with %s, naming the key', async (_name, section, message) => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'status-export.yaml');
      fs.writeFileSync(file, `format: xlsx\n${section}\nfileName: "s-{seq}.xlsx"\n`);
      expect(() => loadExportFormat(file)).toThrow(expect.objectContaining({ code: 'MAPPING_INVALID', message: expect.stringMatching(message) }));
    });
  });

  it('refuses an xlsx section beside csv or json, and accepts a csv section beside json as it always did', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'status-export.yaml');
      for (const format of ['csv', 'json']) {
        fs.writeFileSync(file, `format: ${format}\nxlsx: { sheet: A }\nfileName: "s-{seq}.${format}"\n`);
        expect(() => loadExportFormat(file)).toThrow(
          expect.objectContaining({ message: expect.stringMatching(new RegExp(`xlsx: is for format xlsx .*this file is ${format}`)) }),
        );
      }
      fs.writeFileSync(file, 'format: json\ncsv: { delimiter: "," }\nfileName: "s-{seq}.json"\n');
      expect(loadExportFormat(file).format).toBe('json');
    });
  });

  it('throws CONFIG_NOT_FOUND for a missing file', () => {
    expect(() => loadExportFormat('/nonexistent/status-export.yaml')).toThrow(expect.objectContaining({ code: 'CONFIG_NOT_FOUND' }));
  });
});
