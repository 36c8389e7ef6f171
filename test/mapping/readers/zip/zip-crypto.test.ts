/**
 * The ZipCrypto decipher (`zip-crypto.ts`) against archives Info-ZIP's `zip -P` encrypted: a
 * known-answer check (a stored entry deciphers to the plain text itself, a deflated one to bytes
 * that inflate to it), deciphering in pieces, and the one-byte password check, with the wrong
 * passwords chosen by a second implementation of the cipher (`helpers.ts`).
 */
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENCRYPTION_HEADER_BYTES, ZipCryptoDecipher, openEncryptedEntry } from '../../../../src/mapping/readers/zip/zip-crypto.js';
import { decipherIndependently, ensureInfoZip, firstEntry, incompressibleText, infoZip, passesCheck, wrongPassword } from '../../../helpers/zip.js';

const PLAIN = `<?xml version="1.0" encoding="UTF-8"?>\n<Message><Body>Заказ поставщику № ЗП-1: ${incompressibleText(3000)}</Body></Message>\n`;

/** An entry's encrypted bytes (encryption header included), from Info-ZIP. */
function encrypted(password: string, stored: boolean) {
  const zip = infoZip({ 'Message_УТ_ПК.xml': PLAIN }, { password, stored });
  const entry = firstEntry(zip);
  return { zip, entry, bytes: Buffer.from(zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize)) };
}

beforeAll(() => ensureInfoZip());

describe('ZipCryptoDecipher, known answers from Info-ZIP', () => {
  it.each([
    ['an ASCII password', 'Pa$$w0rd!'],
    ['a Cyrillic password (UTF-8, as zip takes it from the command line)', 'секрет-123'],
    ['a one-letter password', 'x'],
  ])('a stored entry under %s deciphers to the plain text, after a header ending in the check byte', (_what, password) => {
    const { entry, bytes } = encrypted(password, true);
    expect(entry.method).toBe(0);
    expect(entry.flags & 1).toBe(1);
    expect(bytes.length).toBe(Buffer.byteLength(PLAIN) + ENCRYPTION_HEADER_BYTES);
    new ZipCryptoDecipher(Buffer.from(password, 'utf8')).decrypt(bytes);
    expect(bytes[ENCRYPTION_HEADER_BYTES - 1]).toBe(entry.checkByte);
    expect(bytes.subarray(ENCRYPTION_HEADER_BYTES).toString('utf8')).toBe(PLAIN);
  });

  it('a deflated entry deciphers to bytes that inflate to the plain text', () => {
    const { entry, bytes } = encrypted('секрет-123', false);
    expect(entry.method).toBe(8);
    new ZipCryptoDecipher(Buffer.from('секрет-123', 'utf8')).decrypt(bytes);
    expect(zlib.inflateRawSync(bytes.subarray(ENCRYPTION_HEADER_BYTES)).toString('utf8')).toBe(PLAIN);
  });

  it('agrees with the second implementation byte for byte', () => {
    const { bytes } = encrypted('Pa$$w0rd!', false);
    const expected = decipherIndependently('Pa$$w0rd!', bytes);
    new ZipCryptoDecipher(Buffer.from('Pa$$w0rd!', 'utf8')).decrypt(bytes);
    expect(bytes).toEqual(expected);
  });

  it.each([1, 7, 12, 4096])('deciphers the same in pieces of %i bytes: the keys carry over from one piece to the next', (size) => {
    const { bytes } = encrypted('Pa$$w0rd!', true);
    const whole = Buffer.from(bytes);
    new ZipCryptoDecipher(Buffer.from('Pa$$w0rd!', 'utf8')).decrypt(whole);
    const decipher = new ZipCryptoDecipher(Buffer.from('Pa$$w0rd!', 'utf8'));
    for (let at = 0; at < bytes.length; at += size) decipher.decrypt(bytes.subarray(at, at + size));
    expect(bytes).toEqual(whole);
    expect(bytes.subarray(ENCRYPTION_HEADER_BYTES).toString('utf8')).toBe(PLAIN);
  });
});

describe('openEncryptedEntry', () => {
  it('opens an entry with the right password, and the decipher it gives continues after the header', () => {
    const { entry, bytes } = encrypted('секрет-123', true);
    const decipher = openEncryptedEntry(Buffer.from('секрет-123', 'utf8'), bytes.subarray(0, ENCRYPTION_HEADER_BYTES), entry.checkByte);
    expect(decipher).toBeDefined();
    const data = Buffer.from(bytes.subarray(ENCRYPTION_HEADER_BYTES));
    decipher!.decrypt(data);
    expect(data.toString('utf8')).toBe(PLAIN);
  });

  it('leaves the header it is given as it was', () => {
    const { entry, bytes } = encrypted('секрет-123', true);
    const header = Buffer.from(bytes.subarray(0, ENCRYPTION_HEADER_BYTES));
    openEncryptedEntry(Buffer.from('секрет-123', 'utf8'), header, entry.checkByte);
    expect(header).toEqual(bytes.subarray(0, ENCRYPTION_HEADER_BYTES));
  });

  it('refuses a wrong password whose deciphered check byte differs', () => {
    const { zip, entry, bytes } = encrypted('секрет-123', true);
    const wrong = wrongPassword(zip, false);
    expect(passesCheck(zip, 'секрет-123')).toBe(true);
    expect(openEncryptedEntry(Buffer.from(wrong, 'utf8'), bytes.subarray(0, ENCRYPTION_HEADER_BYTES), entry.checkByte)).toBeUndefined();
  });

  it('lets a wrong password through one time in 256, as the format does: the check is one byte', () => {
    const { zip, entry, bytes } = encrypted('секрет-123', true);
    const lucky = wrongPassword(zip, true);
    expect(openEncryptedEntry(Buffer.from(lucky, 'utf8'), bytes.subarray(0, ENCRYPTION_HEADER_BYTES), entry.checkByte)).toBeDefined();
  });
});
