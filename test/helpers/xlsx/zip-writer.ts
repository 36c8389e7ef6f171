/**
 * A ZIP writer for tests, by hand, because the hostile archives a reader must refuse are the ones
 * no library writes: entries that declare a size they do not have, several directory entries
 * sharing one compressed stream (so a 1 MB file inflates to gigabytes), encrypted flags.
 */
import zlib from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** The bytes the entry holds (deflated unless `stored`); ignored when `raw` is given. */
  data?: Buffer;
  /** Already-compressed bytes, written as they are (with `uncompressedSize` declared). */
  raw?: Buffer;
  stored?: boolean;
  /** What the directory declares; default the true size. */
  declaredSize?: number;
  /** Mark the entry encrypted (general purpose flag bit 0). */
  encrypted?: boolean;
  /** Point this directory entry at the local entry of another (by name) instead of writing its own. */
  sameDataAs?: string;
}

export function writeZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets = new Map<string, { offset: number; compressed: number; crc: number; method: number }>();
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const flags = 0x0800 | (entry.encrypted ? 1 : 0);
    let place = entry.sameDataAs === undefined ? undefined : offsets.get(entry.sameDataAs);
    const trueSize = entry.data?.length ?? 0;
    const size = entry.declaredSize ?? trueSize;
    if (place === undefined) {
      const method = entry.stored ? 0 : 8;
      const body = entry.raw ?? (entry.stored ? entry.data! : zlib.deflateRawSync(entry.data ?? Buffer.alloc(0)));
      const crc = entry.data === undefined ? 0 : zlib.crc32(entry.data);
      const header = Buffer.alloc(30);
      header.writeUInt32LE(0x04034b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(flags, 6);
      header.writeUInt16LE(method, 8);
      header.writeUInt32LE(crc, 14);
      header.writeUInt32LE(body.length, 18);
      header.writeUInt32LE(Math.min(size, 0xffffffff), 22);
      header.writeUInt16LE(name.length, 26);
      locals.push(header, name, body);
      place = { offset, compressed: body.length, crc, method };
      offsets.set(entry.name, place);
      offset += header.length + name.length + body.length;
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(place.method, 10);
    central.writeUInt32LE(place.crc, 16);
    central.writeUInt32LE(place.compressed, 20);
    central.writeUInt32LE(Math.min(size, 0xffffffff), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(place.offset, 42);
    centrals.push(central, name);
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A raw deflate stream that inflates to `prefix` followed by `megabytes` MiB of spaces, built
 * without compressing them all: the deflater is flushed after the first MiB and after the second,
 * and the second segment (which only refers back to spaces) is repeated. About 1 KB per MiB.
 */
export async function deflatedSpaces(prefix: string, megabytes: number): Promise<Buffer> {
  const mib = 1024 * 1024;
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const segment = async (bytes: Buffer): Promise<Buffer> => {
    deflate.write(bytes);
    await new Promise<void>((resolve) => deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
    await new Promise((resolve) => setImmediate(resolve));
    return Buffer.concat(out.splice(0));
  };
  const head = await segment(Buffer.concat([Buffer.from(prefix), Buffer.alloc(mib, 0x20)]));
  const block = await segment(Buffer.alloc(mib, 0x20));
  deflate.destroy();
  const parts = [head];
  for (let index = 1; index < megabytes; index++) parts.push(block);
  parts.push(Buffer.from([0x03, 0x00])); // a final, empty fixed-Huffman block
  return Buffer.concat(parts);
}
