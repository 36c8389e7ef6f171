/**
 * File names of export files, from the template (`order-status-{timestamp}-{seq}.csv`). Pure; the
 * exporter stores the chosen name on the rows before writing, so the name is decided once.
 *
 * Placeholders carry text from outside (a 100-character Chinese externalId is legal and 300 bytes
 * of UTF-8), so every name is fitted in UTF-8 bytes: the longest name the exporter creates, its
 * temp name included, is at most 255 bytes, and a Windows device name (`CON`, `NUL`, `COM1`…),
 * which a share refuses, gets a `_` in front.
 */
import type { ExportFileFormat } from '../config/export-format-schema.js';
import { replaceControlCharacters } from '../platform/contract.js';
import { fitFileName } from '../shared/file-name.js';
import { MAX_TARGET_NAME_BYTES } from '../shared/write-file-atomic.js';
import { valueToText } from './format-value.js';

export interface FileNameContext {
  /** When the name is chosen (epoch ms); `{timestamp}` and `{date}` use the daemon's local time. */
  now: number;
  /** Number of the first export row in the file. */
  exportId: number;
  /** `status`, or the flow of an `ack:<flow>` channel. */
  flow: string;
  /** The first record of the file. */
  record: Record<string, unknown>;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Fill the template's placeholders and sanitise the result. */
export function renderFileName(template: string, ctx: FileNameContext): string {
  const d = new Date(ctx.now);
  const date = `${pad(d.getFullYear(), 4)}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
  const values: Record<string, string> = {
    timestamp: `${date}${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`,
    date,
    seq: pad(ctx.exportId, 6),
    id: String(ctx.exportId),
    eventId: valueToText(ctx.record.eventId),
    orderId: valueToText(ctx.record.orderId),
    externalId: valueToText(ctx.record.externalId),
    flow: ctx.flow,
  };
  const filled = template.replace(/\{([A-Za-z]+)\}/g, (whole, key: string) => values[key] ?? whole);
  return sanitiseFileName(filled, `export-${pad(ctx.exportId, 6)}`);
}

/**
 * A name safe in one folder on Linux and on a Windows share: no path separators or characters
 * Windows refuses, no control characters, no leading dot (that would hide it and match the temp
 * pattern), at most 200 characters and `MAX_TARGET_NAME_BYTES` of UTF-8 (see `fitExportName`), no
 * Windows device name. An empty result falls back to `fallback`.
 */
export function sanitiseFileName(name: string, fallback: string): string {
  let out = replaceControlCharacters(name)
    .replace(/[/\\:*?"<>|]/g, '_')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '');
  if (out.length > 200) {
    const ext = /\.[A-Za-z0-9]{1,8}$/.exec(out)?.[0] ?? '';
    out = out.slice(0, 200 - ext.length) + ext;
  }
  return fitExportName(out === '' ? fallback : out);
}

/** `name` fitted so that its temp name fits too, and never a Windows device name (`fitFileName`). */
export function fitExportName(name: string): string {
  return fitFileName(name, MAX_TARGET_NAME_BYTES);
}

/** `name.csv` → `name-2.csv`: the next candidate when a name is taken (fitted again, since it grew). */
export function withSuffix(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return fitExportName(dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`);
}

/**
 * The name an export file falls back to when its own name fails for good (`ENAMETOOLONG`,
 * `EINVAL`…): `<channel>-<seq>.<csv|json|xlsx>` (`status-000042.csv`, `ack-requests-000042.xlsx`),
 * plain ASCII made only of what the config controls, so no file system has a reason to refuse it.
 */
export function fallbackFileName(channel: string, exportId: number, format: ExportFileFormat): string {
  return sanitiseFileName(`${channel.replace(/:/g, '-')}-${pad(exportId, 6)}.${format}`, `export-${pad(exportId, 6)}.${format}`);
}

/** The flow name of a channel (`ack:requests` → `requests`; `status` → `status`). */
export function flowOfChannel(channel: string): string {
  return channel.startsWith('ack:') ? channel.slice(4) : channel;
}
