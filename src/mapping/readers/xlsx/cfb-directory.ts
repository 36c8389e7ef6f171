/**
 * The names in an OLE compound file's directory (the container of .xls workbooks, and of .xlsx
 * workbooks encrypted with a password to open: `EncryptionInfo` + `EncryptedPackage`), read by
 * following the directory's sector chain through the FAT, as [MS-CFB] lays it out.
 *
 * Why the chain and not a scan of the first megabytes for the names: the directory may sit
 * anywhere, at the end of a 40 MB .xls as easily as at its start, and a scan that misses it would
 * call an encrypted workbook an .xls. The walk reads the 512-byte header, the FAT sectors it needs
 * and the directory sectors, bounded by `MAX_DIRECTORY_SECTORS` and cycle-checked: a few KB of
 * reads whatever the file's size. A file that breaks the format gives no names (the caller then
 * says it is an OLE file of an unknown kind).
 */
import { readFully, type InputHandle } from '../../../shared/input-file.js';

const HEADER_BYTES = 512;
/** Sector ids at and above this mark chain ends and free or special sectors. */
const MAX_REGULAR_SECTOR = 0xfffffffa;
/** Header DIFAT slots (the FAT sectors of a file up to ~7 MB with 512-byte sectors). */
const HEADER_DIFAT_SLOTS = 109;
/** Directory sectors followed at most: 4 entries each (512-byte sectors), 32 (4 KiB). */
const MAX_DIRECTORY_SECTORS = 256;
/** DIFAT sectors followed at most (each lists 127 or 1023 more FAT sectors). */
const MAX_DIFAT_SECTORS = 64;

export async function readCfbNames(handle: InputHandle): Promise<string[]> {
  const header = await readAt(handle, 0, HEADER_BYTES);
  if (header.length < HEADER_BYTES) return [];
  const shift = header.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return [];
  const sectorSize = 1 << shift;
  const idsPerSector = sectorSize / 4;
  const sector = (id: number) => readAt(handle, (id + 1) * sectorSize, sectorSize);

  // The FAT's own sectors: the header's 109 slots, then the DIFAT chain, read as far as needed.
  const fatSectors: number[] = [];
  for (let slot = 0; slot < HEADER_DIFAT_SLOTS; slot++) fatSectors.push(header.readUInt32LE(0x4c + 4 * slot));
  let difat = header.readUInt32LE(0x44);
  let difatRead = 0;
  const fatCache = new Map<number, Buffer>();
  const nextSector = async (id: number): Promise<number | undefined> => {
    const index = Math.floor(id / idsPerSector);
    while (index >= fatSectors.length && difat < MAX_REGULAR_SECTOR && difatRead < MAX_DIFAT_SECTORS) {
      const block = await sector(difat);
      if (block.length < sectorSize) return undefined;
      for (let slot = 0; slot < idsPerSector - 1; slot++) fatSectors.push(block.readUInt32LE(4 * slot));
      difat = block.readUInt32LE(sectorSize - 4);
      difatRead++;
    }
    const fatId = fatSectors[index];
    if (fatId === undefined || fatId >= MAX_REGULAR_SECTOR) return undefined;
    let fat = fatCache.get(fatId);
    if (fat === undefined) {
      fat = await sector(fatId);
      if (fat.length < sectorSize) return undefined;
      fatCache.set(fatId, fat);
    }
    return fat.readUInt32LE(4 * (id % idsPerSector));
  };

  const names: string[] = [];
  const seen = new Set<number>();
  let id: number | undefined = header.readUInt32LE(0x30);
  while (id !== undefined && id < MAX_REGULAR_SECTOR && !seen.has(id) && seen.size < MAX_DIRECTORY_SECTORS) {
    seen.add(id);
    const block = await sector(id);
    if (block.length < sectorSize) break;
    for (let offset = 0; offset + 128 <= sectorSize; offset += 128) {
      const length = block.readUInt16LE(offset + 0x40);
      const type = block[offset + 0x42];
      // Unused slots have type 0; a name is at most 31 UTF-16 units and its terminating zero.
      if (type === 0 || length < 2 || length > 64) continue;
      names.push(block.toString('utf16le', offset, offset + length - 2));
    }
    id = await nextSector(id);
  }
  return names;
}

async function readAt(handle: InputHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const bytesRead = await readFully(handle, buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
