/**
 * What an input file is by its first bytes, whatever its name: a CSV flow can be handed a workbook
 * saved under `.csv`, and a workbook flow an `.xls` renamed to `.xlsx`. The message then says what
 * the file really is and what to save it as, instead of a page of column problems.
 */
import { readFully, type InputHandle } from '../../shared/input-file.js';

/** A ZIP archive (xlsx, xlsm, ods), an OLE compound file (xls, an encrypted xlsx), 1C's MOXCEL spreadsheet (mxl). */
export type Container = 'zip' | 'cfb' | 'mxl';

const SIGNATURES: readonly [Container, Buffer][] = [
  ['zip', Buffer.from([0x50, 0x4b, 0x03, 0x04])],
  // An empty archive starts with its end record; still a ZIP, not text.
  ['zip', Buffer.from([0x50, 0x4b, 0x05, 0x06])],
  ['cfb', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])],
  ['mxl', Buffer.from('MOXCEL\0', 'latin1')],
];

/** The container `handle` holds (read at byte 0), or null for anything else (text, most likely). */
export async function sniffContainer(handle: InputHandle, whole?: Buffer): Promise<Container | null> {
  const bytes = whole?.subarray(0, 8) ?? (await readHead(handle));
  return SIGNATURES.find(([, signature]) => bytes.length >= signature.length && bytes.subarray(0, signature.length).equals(signature))?.[0] ?? null;
}

async function readHead(handle: InputHandle): Promise<Buffer> {
  const head = Buffer.alloc(8);
  return head.subarray(0, await readFully(handle, head, 0, head.length, 0));
}

/** What a container is, for a message: `a spreadsheet workbook (xlsx, xlsm or ods)`. */
export function describeContainer(container: Container): string {
  if (container === 'zip') return 'a ZIP archive (an xlsx, xlsm or ods workbook?)';
  if (container === 'cfb') return 'an Excel 97-2003 (.xls) or password-protected workbook';
  return 'a 1C spreadsheet document (.mxl)';
}
