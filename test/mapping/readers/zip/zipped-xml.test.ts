/**
 * `readZippedXml`: the XML file inside a ZIP archive, as 1C compresses an exchange message (one
 * entry, deflated, ZipCrypto-encrypted with a password), read from real archives made by Info-ZIP
 * (`edZip`, `helpers.ts`) in a temp folder; and every way such an archive is refused.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConnectorError, type ErrorCode } from '../../../../src/errors.js';
import { readZippedXml, type ZippedXmlOptions } from '../../../../src/mapping/readers/zip/zipped-xml.js';
import { PEER_MESSAGE, edMessage, edOrder, edZip } from '../../../helpers/enterprisedata.js';
import { withTempDir } from '../../../helpers/temp-dir.js';
import {
  encryptWithCrcCheck,
  ensureInfoZip,
  firstEntry,
  incompressibleText,
  infoZip,
  withDeclaredSize,
  withMethod,
  wrongPassword,
} from '../../../helpers/zip.js';

const MESSAGE = edMessage({ no: 1, body: [edOrder('1.8', { number: 'ЗП-1' }), edOrder('1.8', { number: 'ЗП-2' })] });
const PASSWORD = 'секрет-123';
const LIMIT = 64 * 1024 * 1024;
/**
 * The name as 1C writes it with transliteration on, for the messages that quote the entry's name:
 * `zip -X` writes a Cyrillic name as UTF-8 bytes without the UTF-8 flag (or the Unicode path
 * field), and a ZIP reader then takes it as code page 437.
 */
const LATIN_NAME = 'Message_UT_PK.xml';

/** A message of about 400 KB that deflate barely shrinks: many reads, and the read buffers reused. */
const BIG_MESSAGE = edMessage({ no: 2, body: [edOrder('1.8', { number: 'ЗП-3', comment: 'x', address: `г Химки, ${incompressibleText(400_000)}` })] });

/** The bytes `readZippedXml` yields for `zip`, written to a real file. */
async function unzipped(zip: Buffer, options: Partial<ZippedXmlOptions> = {}): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'Message_УТ_ПК.zip');
    await fs.writeFile(file, zip);
    const handle = await fs.open(file);
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of readZippedXml(handle, { maxUncompressedBytes: LIMIT, ...options })) chunks.push(Buffer.from(chunk));
      return Buffer.concat(chunks);
    } finally {
      await handle.close();
    }
  });
}

/** The `ConnectorError` reading `zip` ends in; fails the test if it is read, or ends in another code. */
async function refusal(zip: Buffer, code: ErrorCode, options: Partial<ZippedXmlOptions> = {}): Promise<ConnectorError> {
  try {
    await unzipped(zip, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).code).toBe(code);
    return error as ConnectorError;
  }
  throw new Error(`expected ${code}, but the archive was read`);
}

beforeAll(() => ensureInfoZip());

describe('readZippedXml: what 1C writes', () => {
  it.each<[string, () => Buffer, string | undefined, string]>([
    ['a deflated message', () => edZip(PEER_MESSAGE, MESSAGE), undefined, MESSAGE],
    ['a deflated message, with a password configured that it does not need', () => edZip(PEER_MESSAGE, MESSAGE), PASSWORD, MESSAGE],
    ['ZipCrypto with a Cyrillic password', () => edZip(PEER_MESSAGE, MESSAGE, PASSWORD), PASSWORD, MESSAGE],
    ['ZipCrypto with an ASCII password', () => edZip(PEER_MESSAGE, MESSAGE, 'Pa$$w0rd!'), 'Pa$$w0rd!', MESSAGE],
    ['a large message', () => edZip(PEER_MESSAGE, BIG_MESSAGE), undefined, BIG_MESSAGE],
    ['a large message, ZipCrypto', () => edZip(PEER_MESSAGE, BIG_MESSAGE, PASSWORD), PASSWORD, BIG_MESSAGE],
    ['a stored entry (zip -0)', () => infoZip({ [PEER_MESSAGE]: MESSAGE }, { stored: true }), undefined, MESSAGE],
    ['a stored entry, ZipCrypto', () => infoZip({ [PEER_MESSAGE]: MESSAGE }, { stored: true, password: PASSWORD }), PASSWORD, MESSAGE],
    ['a large stored entry, ZipCrypto', () => infoZip({ [PEER_MESSAGE]: BIG_MESSAGE }, { stored: true, password: PASSWORD }), PASSWORD, BIG_MESSAGE],
    ['ZipCrypto checked against the CRC (no data descriptor)', () => encryptWithCrcCheck(edZip(PEER_MESSAGE, MESSAGE), PASSWORD), PASSWORD, MESSAGE],
    [
      'a stored entry, ZipCrypto checked against the CRC',
      () => encryptWithCrcCheck(infoZip({ [PEER_MESSAGE]: MESSAGE }, { stored: true }), PASSWORD),
      PASSWORD,
      MESSAGE,
    ],
    ['the file in a folder, the folder’s own entry passed over', () => infoZip({ 'out/': '', [`out/${PEER_MESSAGE}`]: MESSAGE }), undefined, MESSAGE],
  ])('reads %s', async (_what, zip, password, expected) => {
    expect((await unzipped(zip(), { password })).toString('utf8')).toBe(expected);
  });

  it('large messages really are large, and really are encrypted the two ways', () => {
    const deflated = firstEntry(edZip(PEER_MESSAGE, BIG_MESSAGE, PASSWORD));
    expect(deflated.compressedSize).toBeGreaterThan(256 * 1024);
    expect(deflated.flags & 0x0009).toBe(0x0009);
    const byCrc = firstEntry(encryptWithCrcCheck(edZip(PEER_MESSAGE, MESSAGE), PASSWORD));
    expect(byCrc.flags).toBe(0x0001);
  });

  it('reads an entry exactly as large as the limit', async () => {
    const size = Buffer.byteLength(MESSAGE);
    expect((await unzipped(edZip(PEER_MESSAGE, MESSAGE), { maxUncompressedBytes: size })).toString('utf8')).toBe(MESSAGE);
  });
});

describe('readZippedXml: passwords', () => {
  it('refuses an encrypted archive when no password is configured (ARCHIVE_ENCRYPTED)', async () => {
    const error = await refusal(edZip(PEER_MESSAGE, MESSAGE, PASSWORD), 'ARCHIVE_ENCRYPTED');
    expect(error.message).toContain('no password is configured');
  });

  it.each<[string, () => Buffer]>([
    ['deflated', () => edZip(PEER_MESSAGE, MESSAGE, PASSWORD)],
    ['stored', () => infoZip({ [PEER_MESSAGE]: MESSAGE }, { stored: true, password: PASSWORD })],
    ['checked against the CRC', () => encryptWithCrcCheck(edZip(PEER_MESSAGE, MESSAGE), PASSWORD)],
  ])('refuses a wrong password (ARCHIVE_ENCRYPTED): %s', async (_what, make) => {
    const zip = make();
    // Info-ZIP's encryption header is random: the wrong password is one whose check byte differs
    // for this archive, as 255 in 256 do.
    const error = await refusal(zip, 'ARCHIVE_ENCRYPTED', { password: wrongPassword(zip, false) });
    expect(error.message).toContain('cannot be opened with the configured password');
  });

  // Found by a review: a wrong password that passes the one check byte (1 in 256) deciphered a
  // stored entry to garbage, returned without an error. The entry's CRC-32 now refuses it.
  it.each<[string, () => Buffer]>([
    ['stored', () => infoZip({ [PEER_MESSAGE]: MESSAGE }, { stored: true, password: PASSWORD })],
    ['deflated', () => edZip(PEER_MESSAGE, MESSAGE, PASSWORD)],
  ])('refuses a wrong password that passes the check byte (ARCHIVE_ENCRYPTED): %s', async (_what, make) => {
    const zip = make();
    const error = await refusal(zip, 'ARCHIVE_ENCRYPTED', { password: wrongPassword(zip, true) });
    expect(error.message).toContain('cannot be opened with the configured password');
  });

  it('refuses AES encryption (compression method 99) as ARCHIVE_ENCRYPTED even with a password', async () => {
    const error = await refusal(withMethod(edZip(PEER_MESSAGE, MESSAGE, PASSWORD), 99), 'ARCHIVE_ENCRYPTED', { password: PASSWORD });
    expect(error.message).toContain('AES');
  });
});

describe('readZippedXml: sizes', () => {
  /** The message's archive with its deflated data broken at the first byte (an invalid block type). */
  const broken = () => {
    const zip = edZip(LATIN_NAME, MESSAGE);
    zip[firstEntry(zip).dataStart] = 0xff;
    return zip;
  };

  it('a byte changed in a stored entry fails its checksum (FILE_UNREADABLE): found by a review, it was returned as read', async () => {
    const zip = infoZip({ [LATIN_NAME]: MESSAGE }, { stored: true });
    const at = firstEntry(zip).dataStart + 10;
    zip[at] = zip[at]! ^ 0x01;
    const error = await refusal(zip, 'FILE_UNREADABLE');
    expect(error.message).toContain('fails its checksum');
  });

  it('the damage is seen when the entry is inflated (FILE_UNREADABLE)', async () => {
    await refusal(broken(), 'FILE_UNREADABLE');
  });

  it('refuses a declared size above maxUncompressedBytes before inflating anything (ARCHIVE_LIMIT_EXCEEDED)', async () => {
    const size = Buffer.byteLength(MESSAGE);
    const error = await refusal(broken(), 'ARCHIVE_LIMIT_EXCEEDED', { maxUncompressedBytes: size - 1 });
    expect(error.message).toBe(`holds ${LATIN_NAME}, which would inflate to ${size} bytes, more than xml.maxUncompressedBytes (${size - 1}): refused unread`);
  });

  it('refuses a size above the limit before asking for the password', async () => {
    await refusal(edZip(PEER_MESSAGE, MESSAGE, PASSWORD), 'ARCHIVE_LIMIT_EXCEEDED', { maxUncompressedBytes: 1024 });
  });

  it('refuses an entry that inflates past the size it declares (ARCHIVE_LIMIT_EXCEEDED)', async () => {
    const lying = withDeclaredSize(edZip(PEER_MESSAGE, BIG_MESSAGE), 1000);
    const error = await refusal(lying, 'ARCHIVE_LIMIT_EXCEEDED');
    expect(error.message).toContain('inflates past the size it declares');
  });

  it('refuses an entry that inflates to less than it declares (FILE_UNREADABLE)', async () => {
    const size = Buffer.byteLength(MESSAGE);
    const error = await refusal(withDeclaredSize(edZip(PEER_MESSAGE, MESSAGE), size + 10), 'FILE_UNREADABLE');
    expect(error.message).toContain(`expected ${size + 10} bytes, got ${size}`);
  });
});

describe('readZippedXml: what is not a message archive', () => {
  it('refuses an archive of two files (FILE_UNREADABLE), naming them', async () => {
    const zip = infoZip({ [LATIN_NAME]: MESSAGE, 'readme.txt': 'Выгрузка' });
    const error = await refusal(zip, 'FILE_UNREADABLE');
    expect(error.message).toBe(`is a ZIP archive of 2 files ("${LATIN_NAME}", "readme.txt"); a compressed XML file holds one`);
  });

  it('refuses an archive of a folder only (FILE_UNREADABLE)', async () => {
    const error = await refusal(infoZip({ 'out/': '' }), 'FILE_UNREADABLE');
    expect(error.message).toContain('is a ZIP archive of no file');
  });

  it('refuses an archive of 17 entries without listing them (FILE_UNREADABLE)', async () => {
    const files = Object.fromEntries(Array.from({ length: 17 }, (_, n) => [`m${n}.xml`, '<a/>']));
    const error = await refusal(infoZip(files), 'FILE_UNREADABLE');
    expect(error.message).toContain('is a ZIP archive of 17 entries');
  });

  it.each<[string, (zip: Buffer) => Buffer]>([
    ['cut in half', (zip) => zip.subarray(0, Math.floor(zip.length / 2))],
    ['without its last byte', (zip) => zip.subarray(0, zip.length - 1)],
    [
      'without its data (headers only, the data cut out)',
      (zip) => Buffer.concat([zip.subarray(0, firstEntry(zip).dataStart + 4), zip.subarray(firstEntry(zip).central)]),
    ],
    ['empty', () => Buffer.alloc(0)],
  ])('refuses a truncated archive (FILE_UNREADABLE): %s', async (_what, cut) => {
    await refusal(cut(edZip(PEER_MESSAGE, MESSAGE, PASSWORD)), 'FILE_UNREADABLE', { password: PASSWORD });
  });
});
