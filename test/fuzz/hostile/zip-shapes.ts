/**
 * ZIP archives no writer makes on purpose, built from a valid one (`writeZip`: local headers, then
 * the central directory, then its end record, no comments) by changing one field, or written whole
 * where the shape is the layout itself (entries that overlap).
 */
import zlib from 'node:zlib';

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END_BYTES = 22;

/** Where the end record, and each entry's central and local headers, stand. */
export function layoutOf(zip: Buffer): { end: number; entries: { central: number; local: number }[] } {
  const end = zip.length - END_BYTES;
  if (zip.readUInt32LE(end) !== END) throw new Error('expected an end record without a comment');
  const entries: { central: number; local: number }[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let index = 0; index < zip.readUInt16LE(end + 10); index++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error(`no central header at ${at}`);
    entries.push({ central: at, local: zip.readUInt32LE(at + 42) });
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return { end, entries };
}

/** A copy of `zip` with `edit` applied to it, told where entry `index` stands. */
export function patched(zip: Buffer, index: number, edit: (copy: Buffer, at: { central: number; local: number; end: number }) => void): Buffer {
  const copy = Buffer.from(zip);
  const layout = layoutOf(copy);
  edit(copy, { ...layout.entries[index]!, end: layout.end });
  return copy;
}

/** Entry `index`'s central header with `extra` as its extra field (the directory grows by its length). */
export function withCentralExtra(zip: Buffer, index: number, extra: Buffer): Buffer {
  const { end, entries } = layoutOf(zip);
  const central = entries[index]!.central;
  const nameEnd = central + 46 + zip.readUInt16LE(central + 28);
  const oldExtra = zip.readUInt16LE(central + 30);
  const out = Buffer.concat([zip.subarray(0, nameEnd), extra, zip.subarray(nameEnd + oldExtra)]);
  out.writeUInt16LE(extra.length, central + 30);
  const shift = extra.length - oldExtra;
  out.writeUInt32LE(out.readUInt32LE(end + shift + 12) + shift, end + shift + 12);
  return out;
}

/** An extra field record: its header id, the length it claims, and its data. */
export function extraField(id: number, data: Buffer, claimedLength = data.length): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(id, 0);
  head.writeUInt16LE(claimedLength, 2);
  return Buffer.concat([head, data]);
}

/** Info-ZIP's Unicode Path field (0x7075): the name a reader takes instead of the header's, when its CRC matches. */
export function unicodePathField(headerName: string, unicodeName: string): Buffer {
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(zlib.crc32(Buffer.from(headerName, 'utf8')), 0);
  return extraField(0x7075, Buffer.concat([Buffer.from([1]), crc, Buffer.from(unicodeName, 'utf8')]));
}

/** The Zip64 field (0x0001) with one 64-bit size, for an entry whose central uncompressed size says 0xFFFFFFFF. */
export function zip64SizeField(size: bigint): Buffer {
  const data = Buffer.alloc(8);
  data.writeBigUInt64LE(size, 0);
  return extraField(0x0001, data);
}

export interface ChainKernel {
  /** A raw deflate stream ending in a final block. */
  raw: Buffer;
  /** What it inflates to. */
  size: number;
}

/**
 * David Fifield's overlapping zip bomb ("A better zip bomb", WOOT 2019): the entries of `chain`
 * share one compressed kernel; each entry's data is a stored deflate block quoting the next
 * entry's local header, then that entry's data, so each entry inflates to the kernel and every
 * header after it. `plain` entries (deflated, in their own ranges) come first. Sizes are declared
 * honestly; CRCs are left 0 (the workbook reader does not check them, and the overlap is refused
 * before the message reader would).
 */
export function overlappingZip(plain: readonly { name: string; data: Buffer }[], chain: readonly string[], kernel: ChainKernel): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const local = (name: Buffer, compressed: number, size: number) => {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(compressed, 18);
    header.writeUInt32LE(size, 22);
    header.writeUInt16LE(name.length, 26);
    return Buffer.concat([header, name]);
  };
  const directory = (name: Buffer, compressed: number, size: number, at: number, crc: number) => {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(compressed, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(at, 42);
    central.push(header, name);
  };
  for (const entry of plain) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = zlib.deflateRawSync(entry.data);
    const header = local(name, body.length, entry.data.length);
    header.writeUInt32LE(zlib.crc32(entry.data), 14);
    directory(name, body.length, entry.data.length, offset, zlib.crc32(entry.data));
    parts.push(header, body);
    offset += header.length + body.length;
  }
  const names = chain.map((name) => Buffer.from(name, 'utf8'));
  const headerBytes = names.map((name) => 30 + name.length);
  const starts: number[] = [];
  let at = offset;
  names.forEach((_, index) => {
    starts.push(at);
    at += headerBytes[index]! + (index < names.length - 1 ? 5 : 0);
  });
  const end = at + kernel.raw.length;
  names.forEach((name, index) => {
    const dataStart = starts[index]! + headerBytes[index]!;
    const quoted = headerBytes.slice(index + 1).reduce((sum, bytes) => sum + bytes, 0);
    const size = kernel.size + quoted;
    parts.push(local(name, end - dataStart, size));
    directory(name, end - dataStart, size, starts[index]!, 0);
    if (index < names.length - 1) {
      // A stored, non-final block whose content is the next local header.
      const quote = Buffer.alloc(5);
      quote.writeUInt16LE(headerBytes[index + 1]!, 1);
      quote.writeUInt16LE(~headerBytes[index + 1]! & 0xffff, 3);
      parts.push(quote);
    }
  });
  parts.push(kernel.raw);
  const dir = Buffer.concat(central);
  const record = Buffer.alloc(END_BYTES);
  record.writeUInt32LE(END, 0);
  record.writeUInt16LE(plain.length + chain.length, 8);
  record.writeUInt16LE(plain.length + chain.length, 10);
  record.writeUInt32LE(dir.length, 12);
  record.writeUInt32LE(end, 16);
  return Buffer.concat([...parts, dir, record]);
}
