/**
 * The XML file inside a ZIP archive, as 1C writes a compressed exchange message: one entry (the
 * message under its own name), deflated, and encrypted with ZipCrypto when an archive password is
 * set. Read over the caller's InputHandle and inflated as the consumer asks, under the same guards
 * as a workbook's parts (`inflate-entry.ts`): the declared size is checked before anything
 * inflates, and an entry that inflates past it is refused.
 */
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { ConnectorError, isConnectorError, type MessageText } from '../../../errors.js';
import { cannotReadFile, readFully, type InputHandle } from '../../../shared/input-file.js';
import { HandleReader } from './handle-reader.js';
import { dataStart, inflateEntry, type EntryCipher } from './inflate-entry.js';
import { ENCRYPTION_HEADER_BYTES, openEncryptedEntry } from './zip-crypto.js';

export interface ZippedXmlOptions {
  /** The archive's password (1C's "Пароль архива"), when it has one. */
  password?: string | undefined;
  /** The entry's declared size must not pass this; nor may it inflate past its declared size. */
  maxUncompressedBytes: number;
}

/** More entries than a message archive holds are not listed one by one: it is refused at once. */
const MAX_LISTED_ENTRIES = 16;
/** The general purpose flag saying the sizes and CRC follow the data (the check byte is then the time's). */
const DATA_DESCRIPTOR_FLAG = 0x0008;
/** The compression method WinZip's AES encryption writes in place of the real one. */
const AES_METHOD = 99;

/** The flow's setting that holds 1C's archive password, named in every refusal a person fixes there. */
const PASSWORD_SETTING = 'enterpriseData.password';
const WRONG_PASSWORD: MessageText = { key: 'zipWrongPassword', params: { setting: PASSWORD_SETTING } };

/**
 * The inflated bytes of the archive's one XML entry, chunk by chunk. Throws a `ConnectorError`:
 * `ARCHIVE_ENCRYPTED` (no password, a wrong one, or AES), `ARCHIVE_LIMIT_EXCEEDED` (too large, or a
 * size that lies), `FILE_UNREADABLE` (not one entry, damaged, truncated).
 */
export async function* readZippedXml(handle: InputHandle, options: ZippedXmlOptions, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const size = (await handle.stat()).size;
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(new HandleReader(handle), size, { autoClose: false, validateEntrySizes: true, strictFileNames: false });
  } catch (error) {
    throw zipError(error);
  }
  const stop = new AbortController();
  const abort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  let encrypted = false;
  try {
    const entry = await theOneEntry(zip);
    encrypted = entry.isEncrypted();
    if (entry.uncompressedSize > options.maxUncompressedBytes) {
      throw new ConnectorError(
        'ARCHIVE_LIMIT_EXCEEDED',
        `holds ${entry.fileName}, which would inflate to ${entry.uncompressedSize} bytes, more than xml.maxUncompressedBytes (${options.maxUncompressedBytes}): refused unread`,
        {
          text: {
            key: 'zipEntryTooLarge',
            params: { entry: entry.fileName, size: entry.uncompressedSize, setting: 'xml.maxUncompressedBytes', limit: options.maxUncompressedBytes },
          },
        },
      );
    }
    const cipher = entry.isEncrypted() ? await cipherFor(handle, entry, options.password) : undefined;
    // The entry's CRC-32 is checked as it inflates: ZipCrypto's one check byte lets 1 wrong password
    // in 256 through (its bytes then decipher to garbage that may still inflate, or not be deflated
    // at all), and a stored entry has no other check against damage.
    let crc = 0;
    for await (const chunk of inflateEntry(handle, entry, () => undefined, stop.signal, cipher)) {
      crc = zlib.crc32(chunk, crc);
      yield chunk;
    }
    if (crc !== entry.crc32) {
      throw cipher
        ? new ConnectorError(
            'ARCHIVE_ENCRYPTED',
            "cannot be opened with the configured password (its content fails its checksum): check the flow's enterpriseData.password",
            { text: WRONG_PASSWORD },
          )
        : new ConnectorError('FILE_UNREADABLE', `is a damaged ZIP archive: ${entry.fileName} fails its checksum`, {
            text: { key: 'zipChecksum', params: { entry: entry.fileName } },
          });
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // Deciphered with a wrong password that passed the check byte, the data is not deflate.
    if (encrypted && String((error as NodeJS.ErrnoException).code).startsWith('Z_')) {
      throw new ConnectorError(
        'ARCHIVE_ENCRYPTED',
        "cannot be opened with the configured password (its content does not inflate): check the flow's enterpriseData.password",
        { cause: error, text: WRONG_PASSWORD },
      );
    }
    throw zipError(error);
  } finally {
    signal?.removeEventListener('abort', abort);
    zip.close();
  }
}

/** The archive's only file entry (folders are passed over); more than one, or none, is not a message archive. */
async function theOneEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry> {
  if (zip.entryCount > MAX_LISTED_ENTRIES) {
    throw new ConnectorError('FILE_UNREADABLE', `is a ZIP archive of ${zip.entryCount} entries; a compressed XML file holds one`, {
      text: { key: 'zipEntries', params: { n: zip.entryCount } },
    });
  }
  const files: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) files.push(entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
  if (files.length !== 1) {
    const names = files.map((entry) => JSON.stringify(entry.fileName)).join(', ');
    throw new ConnectorError(
      'FILE_UNREADABLE',
      `is a ZIP archive of ${files.length === 0 ? 'no file' : `${files.length} files (${names})`}; a compressed XML file holds one`,
      { text: { key: 'zipEntries', params: files.length === 0 ? { n: 0 } : { n: files.length, said: names } } },
    );
  }
  return files[0]!;
}

/** The decipher of an encrypted entry, checked against its header; refused without a password or with a wrong one. */
async function cipherFor(handle: InputHandle, entry: yauzl.Entry, password: string | undefined): Promise<EntryCipher> {
  if (entry.compressionMethod === AES_METHOD) {
    throw new ConnectorError(
      'ARCHIVE_ENCRYPTED',
      'is encrypted with AES; 1C encrypts its messages with the ZIP standard cipher (Zip20), which is the one read here',
      { text: { key: 'zipAes' } },
    );
  }
  if (password === undefined) {
    throw new ConnectorError(
      'ARCHIVE_ENCRYPTED',
      "is a password-protected archive and no password is configured: set the flow's enterpriseData.password to 1C's archive password",
      { text: { key: 'zipNoPassword', params: { setting: PASSWORD_SETTING } } },
    );
  }
  const header = Buffer.alloc(ENCRYPTION_HEADER_BYTES);
  const bytesRead = await readFully(handle, header, 0, ENCRYPTION_HEADER_BYTES, await dataStart(handle, entry));
  if (bytesRead < ENCRYPTION_HEADER_BYTES) {
    throw new ConnectorError('FILE_UNREADABLE', 'is a damaged ZIP archive: its entry ends inside its encryption header', { text: { key: 'zipHeaderCut' } });
  }
  const checkByte = entry.generalPurposeBitFlag & DATA_DESCRIPTOR_FLAG ? (entry.lastModFileTime >>> 8) & 0xff : (entry.crc32 >>> 24) & 0xff;
  const decipher = openEncryptedEntry(Buffer.from(password, 'utf8'), header, checkByte);
  if (decipher === undefined) {
    throw new ConnectorError(
      'ARCHIVE_ENCRYPTED',
      "cannot be opened with the configured password: check the flow's enterpriseData.password against 1C's archive password",
      { text: WRONG_PASSWORD },
    );
  }
  return { skip: ENCRYPTION_HEADER_BYTES, decrypt: (bytes) => decipher.decrypt(bytes) };
}

/** What went wrong in the archive, as the connector's error (as a workbook's container is judged). */
function zipError(error: unknown): unknown {
  const zip = isConnectorError(error) ? error.details.zip : undefined;
  if (isConnectorError(error) && zip === undefined) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (zip === 'inflates past its size' || message.startsWith('too many bytes in the stream')) {
    return new ConnectorError('ARCHIVE_LIMIT_EXCEEDED', 'holds an entry that inflates past the size it declares: refused as a zip bomb or a damaged file', {
      cause: error,
      text: { key: 'zipBomb' },
    });
  }
  // yauzl's "strong encryption is not supported": PKWARE's strong encryption, which 1C never writes.
  if (zip === undefined && message.includes('encryption')) {
    return new ConnectorError(
      'ARCHIVE_ENCRYPTED',
      `is encrypted with a cipher 1C does not use (${message}); 1C encrypts its messages with the ZIP standard cipher (Zip20)`,
      { cause: error, text: { key: 'zipCipher', params: { said: message } } },
    );
  }
  // A system error while reading (EIO…); a damaged entry (`zip === 'damaged'`) is worded below.
  const code = zip === undefined ? (error as NodeJS.ErrnoException).code : undefined;
  if (code !== undefined && !code.startsWith('Z_') && code !== 'ERR_STREAM_PREMATURE_CLOSE') {
    return cannotReadFile(error);
  }
  return new ConnectorError('FILE_UNREADABLE', `is not a complete ZIP archive (truncated, or a wrong password?): ${message}`, {
    cause: error,
    text: { key: 'zipIncomplete', params: { said: message } },
  });
}
