/**
 * File names the daemon makes from text it does not control (an ERP's file names, externalIds,
 * order ids). Pure. Two limits bite on the file systems an ERP server mounts:
 * - a name is at most 255 **bytes** (ext4, XFS, and SMB/CIFS through Linux), not characters: a
 *   100-character Chinese externalId is 300 bytes of UTF-8 and fails with `ENAMETOOLONG`;
 * - a Windows share refuses device names (`CON`, `NUL`, `COM1`, `LPT1`… with any extension).
 * A shortened name keeps its extension and gets a short hash of the whole name, so two long names
 * that share a prefix still map to two names.
 */
import { createHash } from 'node:crypto';

/** The longest file name (in UTF-8 bytes) most Linux file systems and SMB shares accept. */
export const MAX_NAME_BYTES = 255;

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8, never cutting a character (or a surrogate pair) in two. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (utf8Length(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = utf8Length(ch);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** True for a name Windows treats as a device (`NUL`, `com1.csv`, `Lpt3.txt`): the part before the first dot decides. */
export function isWindowsDeviceName(name: string): boolean {
  const stem = name.split('.')[0]!.trimEnd();
  return WINDOWS_DEVICE.test(stem);
}

/** The extension kept when a name is shortened: a short, plain one (`.csv`, `.errors.json` is two). */
function extensionOf(name: string): string {
  return /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
}

/**
 * `name` made to fit in `maxBytes` of UTF-8: unchanged when it fits, else its stem is cut at a
 * character boundary and `~<8 hex of SHA-256(name)>` plus the extension is appended. A Windows
 * device name gets a `_` prefix. Deterministic: the same input always gives the same name.
 */
export function fitFileName(name: string, maxBytes: number = MAX_NAME_BYTES): string {
  let out = isWindowsDeviceName(name) ? `_${name}` : name;
  if (utf8Length(out) <= maxBytes) return out;
  const ext = extensionOf(out);
  const tag = `~${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
  const stem = out.slice(0, out.length - ext.length);
  out = truncateUtf8(stem, maxBytes - utf8Length(tag) - utf8Length(ext)) + tag + ext;
  return out;
}
