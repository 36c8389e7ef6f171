/**
 * ZIP test helpers: archives made by Info-ZIP's `zip` (as `edZip` makes 1C's, with the layouts
 * `edZip` does not: stored, several files, a folder), the fields of their one entry, and a second
 * ZipCrypto written from APPNOTE.TXT 6.1 on `zlib.crc32` (not on the table of `zip-crypto.ts`), to
 * encrypt an entry the way a writer without data descriptors does and to tell a wrong password
 * from a right one independently of the code under test.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { edZip } from './enterprisedata.js';

/** Info-ZIP's `zip` on the machine: `edZip` installs it when it is missing. */
export function ensureInfoZip(): void {
  edZip('probe.xml', '<probe/>');
}

export interface ZipOptions {
  password?: string;
  /** `zip -0`: the entry stored, not deflated. */
  stored?: boolean;
}

/** A ZIP of `files` (path → content; a path ending in `/` is a folder), in that order, by Info-ZIP. */
export function infoZip(files: Record<string, string | Buffer>, options: ZipOptions = {}): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-test-'));
  try {
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(dir, name);
      if (name.endsWith('/')) fs.mkdirSync(file, { recursive: true });
      else {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
      }
    }
    const args = ['-q', '-X', ...(options.stored ? ['-0'] : []), ...(options.password === undefined ? [] : ['-P', options.password])];
    // Not recursive: a folder named is added as a folder entry, and a file's folders are not.
    execFileSync('zip', [...args, 'out.zip', ...Object.keys(files)], { cwd: dir });
    return fs.readFileSync(path.join(dir, 'out.zip'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const LOCAL_SIGNATURE = 0x04034b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const END_SIGNATURE = 0x06054b50;

/** The fields of an archive's first entry, from its local header, and where its central header is. */
export function firstEntry(zip: Buffer) {
  if (zip.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new Error('not a ZIP starting with a local header');
  const flags = zip.readUInt16LE(6);
  const nameLength = zip.readUInt16LE(26);
  const extraLength = zip.readUInt16LE(28);
  return {
    flags,
    method: zip.readUInt16LE(8),
    time: zip.readUInt16LE(10),
    crc: zip.readUInt32LE(14),
    compressedSize: zip.readUInt32LE(18),
    uncompressedSize: zip.readUInt32LE(22),
    dataStart: 30 + nameLength + extraLength,
    central: zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])),
    end: zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])),
    /** The byte a right password deciphers the encryption header's last byte to. */
    checkByte: flags & 0x0008 ? (zip.readUInt16LE(10) >>> 8) & 0xff : zip.readUInt8(17),
  };
}

/** A copy of `zip` whose first entry declares `uncompressedSize`, in its local and central headers alike. */
export function withDeclaredSize(zip: Buffer, uncompressedSize: number): Buffer {
  const copy = Buffer.from(zip);
  const entry = firstEntry(copy);
  copy.writeUInt32LE(uncompressedSize, 22);
  copy.writeUInt32LE(uncompressedSize, entry.central + 24);
  return copy;
}

/** A copy of `zip` whose first entry names compression `method`, in both headers. */
export function withMethod(zip: Buffer, method: number): Buffer {
  const copy = Buffer.from(zip);
  copy.writeUInt16LE(method, 8);
  copy.writeUInt16LE(method, firstEntry(copy).central + 10);
  return copy;
}

// APPNOTE.TXT 6.1, "Traditional PKWARE Encryption", on zlib's CRC-32: zlib inverts the value
// before and after, so the bare table step is the inverse of zlib's crc32 of the inverted state.
const crcStep = (crc: number, byte: number): number => ~zlib.crc32(Buffer.of(byte), ~crc >>> 0) >>> 0;

class Keys {
  private k0 = 0x12345678;
  private k1 = 0x23456789;
  private k2 = 0x34567890;

  constructor(password: Buffer) {
    for (const byte of password) this.update(byte);
  }

  update(plain: number): void {
    this.k0 = crcStep(this.k0, plain);
    this.k1 = Number(((BigInt(this.k1) + BigInt(this.k0 & 0xff)) * 134775813n + 1n) % 2n ** 32n);
    this.k2 = crcStep(this.k2, this.k1 >>> 24);
  }

  streamByte(): number {
    const temp = (this.k2 | 2) & 0xffff;
    return Math.floor((temp * (temp ^ 1)) / 256) & 0xff;
  }
}

/** `cipher` deciphered with `password`, by the second implementation. */
export function decipherIndependently(password: string, cipher: Buffer): Buffer {
  const keys = new Keys(Buffer.from(password, 'utf8'));
  const plain = Buffer.alloc(cipher.length);
  for (let i = 0; i < cipher.length; i += 1) {
    plain[i] = cipher[i]! ^ keys.streamByte();
    keys.update(plain[i]!);
  }
  return plain;
}

function encipherIndependently(password: string, plain: Buffer): Buffer {
  const keys = new Keys(Buffer.from(password, 'utf8'));
  const cipher = Buffer.alloc(plain.length);
  for (let i = 0; i < plain.length; i += 1) {
    cipher[i] = plain[i]! ^ keys.streamByte();
    keys.update(plain[i]!);
  }
  return cipher;
}

/** Does `password` pass the entry's one-byte check (a wrong password does, one time in 256)? */
export function passesCheck(zip: Buffer, password: string): boolean {
  const entry = firstEntry(zip);
  const header = decipherIndependently(password, zip.subarray(entry.dataStart, entry.dataStart + 12));
  return header[11] === entry.checkByte;
}

/** The first of `wrong-1`, `wrong-2`, … that fails (`passes` false) or passes the archive's check. */
export function wrongPassword(zip: Buffer, passes: boolean): string {
  for (let n = 1; n < 100_000; n += 1) if (passesCheck(zip, `wrong-${n}`) === passes) return `wrong-${n}`;
  throw new Error('no such password');
}

/**
 * `zip` (one entry, unencrypted, no data descriptor, as Info-ZIP writes it plain) with its entry
 * ZipCrypto-encrypted under `password` the way a writer that knows the CRC first does: the check
 * byte is the CRC's high byte and no data descriptor follows (Info-ZIP itself uses the time's).
 */
export function encryptWithCrcCheck(zip: Buffer, password: string): Buffer {
  const entry = firstEntry(zip);
  if (entry.flags !== 0) throw new Error('expected a plain entry without a data descriptor');
  const header = Buffer.from('0123456789a\0', 'latin1');
  header[11] = entry.checkByte;
  const data = zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  const encrypted = encipherIndependently(password, Buffer.concat([header, data]));
  const out = Buffer.concat([zip.subarray(0, entry.dataStart), encrypted, zip.subarray(entry.dataStart + entry.compressedSize)]);
  const shift = 12;
  out.writeUInt16LE(1, 6);
  out.writeUInt32LE(entry.compressedSize + shift, 18);
  const central = entry.central + shift;
  if (out.readUInt32LE(central) !== CENTRAL_SIGNATURE) throw new Error('central header not found');
  out.writeUInt16LE(1, central + 8);
  out.writeUInt32LE(entry.compressedSize + shift, central + 20);
  const end = entry.end + shift;
  if (out.readUInt32LE(end) !== END_SIGNATURE) throw new Error('end of central directory not found');
  out.writeUInt32LE(out.readUInt32LE(end + 16) + shift, end + 16);
  return out;
}

/** `bytes` of text that barely compresses (base64 of a SHA-256 chain), the same every run. */
export function incompressibleText(bytes: number): string {
  const digests: Buffer[] = [];
  let digest = createHash('sha256').update('procurement-connector').digest();
  for (let length = 0; length * 4 < bytes * 3; length += digest.length) {
    digests.push(digest);
    digest = createHash('sha256').update(digest).digest();
  }
  return Buffer.concat(digests).toString('base64').slice(0, bytes);
}
