/** The XLSX reader (a table). Not written yet: refuses every workbook. */
import { ConnectorError } from '../../errors.js';
import type { TableReader } from './types.js';

export const xlsxReader: TableReader = {
  shape: 'table',
  open: (_handle, spec) => ({
    // eslint-disable-next-line require-yield
    rows: (async function* () {
      throw new ConnectorError('FILE_FORMAT_UNSUPPORTED', 'is a workbook: XLSX is not read yet');
    })(),
    header: { kind: 'find', within: spec.xlsx.headerSearchRows },
    decimalComma: spec.xlsx.decimalComma,
  }),
};
