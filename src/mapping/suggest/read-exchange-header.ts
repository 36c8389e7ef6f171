/**
 * Whether a sample is one of 1C's EnterpriseData exchange messages: the root `Message` holds a
 * `Header` whose `Format` is the EnterpriseData namespace, bare (the settings message, the
 * handshake) or with its version (a data message). The header says, besides, who wrote the
 * message to whom: the codes an exchange flow's `enterpriseData` names.
 *
 * Read as the daemon reads it (`readers/enterprisedata-header.ts`), from the file or from the one
 * XML entry of a ZIP (1C compresses its messages), only as far as the header's end.
 */
import { XML_DEFAULTS } from '../../config/mapping-schema.js';
import { ConnectorError, isConnectorError } from '../../errors.js';
import type { OpenedInput } from '../../shared/input-file.js';
import { formatOf, readMessageHeader } from '../readers/enterprisedata-header.js';
import { xmlBytes } from '../readers/xml-reader.js';

export interface ExchangeHeader {
  /** The data message's EnterpriseData version (`1.8`); null for the settings message, which names none. */
  version: string | null;
  /** `Confirmation/From`: 1C's code, the flow's `peer`. */
  from: string | null;
  /** `Confirmation/To`: the code 1C gave this program, the flow's `node`; null when the header names none. */
  to: string | null;
}

/**
 * The EnterpriseData header of the sample, or undefined when it is no EnterpriseData message (another
 * root, no header, another format). Throws what the reader throws for a file it cannot read (not
 * well-formed, an encrypted ZIP), with the file's name.
 */
export async function readExchangeHeader(input: OpenedInput, fileName: string): Promise<ExchangeHeader | undefined> {
  try {
    const header = await readMessageHeader(xmlBytes(input.handle, XML_DEFAULTS), XML_DEFAULTS);
    const format = formatOf(header.format);
    if (format.kind === 'other') return undefined;
    return { version: format.kind === 'data' ? format.version : null, from: header.from, to: header.to };
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    // Not an exchange message (another root, no header): some other XML, for the other suggesters.
    if (error.code === 'EXCHANGE_MESSAGE_INVALID') return undefined;
    throw new ConnectorError(error.code, `${fileName} ${error.message}`, { cause: error });
  }
}
