/**
 * File names of export files, from the template (`order-status-{timestamp}-{seq}.csv`). Pure; the
 * exporter stores the chosen name on the rows before writing, so the name is decided once.
 */
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
 * pattern), at most 200 characters. An empty result falls back to `fallback`.
 */
export function sanitiseFileName(name: string, fallback: string): string {
  let out = name
    .replace(/[/\\:*?"<>|]/g, '_')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '_')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '');
  if (out.length > 200) {
    const ext = /\.[A-Za-z0-9]{1,8}$/.exec(out)?.[0] ?? '';
    out = out.slice(0, 200 - ext.length) + ext;
  }
  return out === '' ? fallback : out;
}

/** `name.csv` → `name-2.csv`: the next candidate when a name is taken. */
export function withSuffix(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

/** The flow name of a channel (`ack:requests` → `requests`; `status` → `status`). */
export function flowOfChannel(channel: string): string {
  return channel.startsWith('ack:') ? channel.slice(4) : channel;
}
