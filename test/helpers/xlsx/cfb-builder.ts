/**
 * A minimal OLE compound file for tests ([MS-CFB], version 3, 512-byte sectors): a header, one FAT
 * sector, `filler` unused sectors, and a directory of two sectors chained through the FAT, the
 * second holding `names` — so a reader that does not follow the chain cannot find them.
 */
const SECTOR = 512;
const END_OF_CHAIN = 0xfffffffe;
const FAT_SECTOR = 0xfffffffd;
const FREE = 0xffffffff;

function directoryEntry(name: string, type: number): Buffer {
  const entry = Buffer.alloc(128);
  entry.write(name, 0, 'utf16le');
  entry.writeUInt16LE((name.length + 1) * 2, 0x40);
  entry[0x42] = type;
  entry.writeUInt32LE(FREE, 0x44);
  entry.writeUInt32LE(FREE, 0x48);
  entry.writeUInt32LE(FREE, 0x4c);
  return entry;
}

export function buildCfb(names: readonly string[], filler = 20): Buffer {
  const firstDirectory = 1 + filler;
  const header = Buffer.alloc(SECTOR);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c);
  header.writeUInt32LE(firstDirectory, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(END_OF_CHAIN, 0x3c);
  header.writeUInt32LE(END_OF_CHAIN, 0x44);
  for (let slot = 0; slot < 109; slot++) header.writeUInt32LE(slot === 0 ? 0 : FREE, 0x4c + 4 * slot);

  const fat = Buffer.alloc(SECTOR, 0xff);
  fat.writeUInt32LE(FAT_SECTOR, 0);
  fat.writeUInt32LE(firstDirectory + 1, 4 * firstDirectory);
  fat.writeUInt32LE(END_OF_CHAIN, 4 * (firstDirectory + 1));

  const first = Buffer.concat([
    directoryEntry('Root Entry', 5),
    directoryEntry('\u0005SummaryInformation', 2),
    directoryEntry('\u0005DocumentSummaryInformation', 2),
    Buffer.alloc(128),
  ]);
  const second = Buffer.concat([...names.map((name) => directoryEntry(name, 2)), Buffer.alloc(SECTOR)]).subarray(0, SECTOR);
  return Buffer.concat([header, fat, Buffer.alloc(filler * SECTOR), first, second]);
}
