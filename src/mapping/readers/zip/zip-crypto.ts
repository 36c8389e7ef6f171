/**
 * PKWARE's traditional ZIP encryption ("ZipCrypto", 1C's `ZipEncryptionMethod.Zip20`), for
 * reading: 1C encrypts a compressed exchange message this way when its archive password is set.
 *
 * Hand-written: yauzl (our ZIP reader) refuses encrypted entries, and the libraries that decrypt
 * them bring a second ZIP reader along; the cipher itself is the dozen lines of APPNOTE.TXT 6.1.
 * It is weak (a known-plaintext attack breaks it), which is 1C's choice, not ours: the password
 * keeps a folder's casual readers out, no more.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

const crc32Byte = (crc: number, byte: number): number => (CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)) >>> 0;

/** Bytes of the encryption header before an encrypted entry's data. */
export const ENCRYPTION_HEADER_BYTES = 12;

/** The cipher's running state: three keys, updated by every plain byte. */
export class ZipCryptoDecipher {
  private k0 = 0x12345678;
  private k1 = 0x23456789;
  private k2 = 0x34567890;

  constructor(password: Buffer) {
    for (const byte of password) this.update(byte);
  }

  private update(byte: number): void {
    this.k0 = crc32Byte(this.k0, byte);
    this.k1 = (Math.imul((this.k1 + (this.k0 & 0xff)) >>> 0, 134775813) + 1) >>> 0;
    this.k2 = crc32Byte(this.k2, this.k1 >>> 24);
  }

  /** Decrypt `bytes` in place. */
  decrypt(bytes: Buffer): void {
    for (let i = 0; i < bytes.length; i += 1) {
      const temp = (this.k2 | 2) & 0xffff;
      const plain = bytes[i]! ^ ((Math.imul(temp, temp ^ 1) >>> 8) & 0xff);
      bytes[i] = plain;
      this.update(plain);
    }
  }
}

/**
 * A decipher for an entry, after its 12-byte encryption header: the header's last byte must be
 * the check byte (the CRC's high byte, or the modification time's when the sizes follow the data),
 * which is how a wrong password shows. Undefined for a wrong password.
 */
export function openEncryptedEntry(password: Buffer, header: Buffer, checkByte: number): ZipCryptoDecipher | undefined {
  const decipher = new ZipCryptoDecipher(password);
  const plain = Buffer.from(header);
  decipher.decrypt(plain);
  return plain[ENCRYPTION_HEADER_BYTES - 1] === checkByte ? decipher : undefined;
}
