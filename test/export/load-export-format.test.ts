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

  it('throws CONFIG_NOT_FOUND for a missing file', () => {
    expect(() => loadExportFormat('/nonexistent/status-export.yaml')).toThrow(expect.objectContaining({ code: 'CONFIG_NOT_FOUND' }));
  });
});
