/** The XML reader (a tree). Not written yet: refuses every file. */
import { ConnectorError } from '../../errors.js';
import type { TreeReader } from './types.js';

export const xmlReader: TreeReader = {
  shape: 'tree',
  open: (_handle, spec) => ({
    // eslint-disable-next-line require-yield
    records: (async function* () {
      throw new ConnectorError('FILE_FORMAT_UNSUPPORTED', 'is XML: XML is not read yet');
    })(),
    source: () => () => undefined,
    decimalComma: spec.xml.decimalComma,
  }),
};
