/**
 * A text file saved as UTF-16: Excel's "Unicode Text" writes one (little-endian, with a byte order
 * mark, tab-separated), and so do Notepad's "Unicode" and some report writers. No `encoding`
 * setting reads it (UTF-8 and windows-1251 are what 1C and Excel's CSV write), and read as either
 * it becomes a symptom: csv-parse stops at the first quote after a zero byte (`Invalid Opening
 * Quote … "\u0000"`), JSON.parse at the `я` windows-1251 makes of the mark. So the CSV and JSON
 * readers look at the first bytes before decoding anything and refuse the file saying what it is
 * and what to save it as, as the XML reader does (`xml/xml-decoder.ts`).
 */
import { ConnectorError } from '../../errors.js';
import { readFully, type InputHandle } from '../../shared/input-file.js';

/** How much of the file is looked at. */
export const UTF16_HEAD_BYTES = 1024;

/** What shows a file is UTF-16: its byte order mark, or zero bytes on one side of its characters. */
export type Utf16Evidence = 'bom' | 'zeros';

/**
 * How `head`, a file's first bytes, shows it is UTF-16; undefined when it does not.
 *
 * Without a mark: UTF-16 writes each digit, Latin letter, space, delimiter and line end as its
 * code and a zero byte (the zero second in little-endian, first in big-endian), a Cyrillic letter
 * as its code and 0x04. UTF-8 and windows-1251 text hold no zero byte at all. So zero bytes that
 * stand on one side only, at least one pair in five, mean UTF-16 (an export starts with numbers,
 * dates and delimiters, far more than that); zero bytes on both sides are not text of any kind,
 * and are left to the reader to fail on.
 */
export function utf16Evidence(head: Buffer): Utf16Evidence | undefined {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return 'bom';
  const pairs = Math.floor(Math.min(head.length, UTF16_HEAD_BYTES) / 2);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < pairs * 2; i += 1) {
    if (head[i] !== 0) continue;
    if (i % 2 === 0) even += 1;
    else odd += 1;
  }
  const one = Math.max(even, odd);
  const other = Math.min(even, odd);
  return one >= 2 && one * 5 >= pairs && other * 10 <= one ? 'zeros' : undefined;
}

const SAID: Readonly<Record<Utf16Evidence, string>> = {
  bom: 'it starts with a UTF-16 byte order mark',
  zeros: 'no byte order mark, but a zero byte beside each digit and Latin letter',
};

/** What to save a UTF-16 file as from Excel, whose "Unicode Text" is the usual source of one (CSV). */
export const EXCEL_ADVICE = '(from Excel: "CSV UTF-8", not "Unicode Text")';

/**
 * The refusal of a file whose first bytes are `head`, or undefined when it is not UTF-16.
 * `excel`: the advice for Excel follows (`EXCEL_ADVICE`), as for a CSV file.
 */
export function utf16Refusal(head: Buffer, excel = false): ConnectorError | undefined {
  const evidence = utf16Evidence(head);
  if (evidence === undefined) return undefined;
  return new ConnectorError('FILE_UNREADABLE', `is UTF-16 (${SAID[evidence]}): save it as windows-1251 or UTF-8${excel ? ` ${EXCEL_ADVICE}` : ''}`, {
    text: { key: excel ? 'utf16Excel' : 'utf16' },
  });
}

/** Throws `FILE_UNREADABLE` when the file `handle` holds (read at byte 0) is UTF-16. */
export async function refuseUtf16(handle: InputHandle, excel = false): Promise<void> {
  const head = Buffer.alloc(UTF16_HEAD_BYTES);
  const bytesRead = await readFully(handle, head, 0, head.length, 0);
  const refusal = utf16Refusal(head.subarray(0, bytesRead), excel);
  if (refusal) throw refusal;
}
