/**
 * EnterpriseData's format URIs and versions, as the message header carries them. The settings
 * message (the handshake) names the bare namespace; a data message names it with its version
 * (`…/EnterpriseData/1.8`), optionally followed by a space and an extension's URI.
 */

export const ENTERPRISEDATA_NAMESPACE = 'http://v8.1c.ru/edi/edi_stnd/EnterpriseData';
/** The namespace of the message's envelope (`msg:Header`). */
export const MESSAGE_NAMESPACE = 'http://www.1c.ru/SSL/Exchange/Message';
/** The exchange plan named in our replies when 1C named none. */
export const DEFAULT_EXCHANGE_PLAN = 'СинхронизацияДанныхЧерезУниверсальныйФормат';

/** What a header's `Format` says: the settings message (no version), a data message's version, or not EnterpriseData. */
export type FormatOf = { kind: 'settings' } | { kind: 'data'; version: string } | { kind: 'other'; uri: string };

const VERSION = /^\d{1,4}\.\d{1,4}(?:\.\d{1,4})?$/;

export function formatOf(format: string): FormatOf {
  const uri = format.trim().split(/\s+/)[0] ?? '';
  if (uri === ENTERPRISEDATA_NAMESPACE) return { kind: 'settings' };
  if (uri.startsWith(`${ENTERPRISEDATA_NAMESPACE}/`)) {
    const version = uri.slice(ENTERPRISEDATA_NAMESPACE.length + 1);
    if (VERSION.test(version)) return { kind: 'data', version };
  }
  return { kind: 'other', uri };
}

/** Compare two versions as 1C does, by their numeric parts (`1.8` < `1.16`). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** The highest version both sides declare (1C's choice of the exchange's format version), or null when none is shared. */
export function highestCommonVersion(ours: readonly string[], theirs: readonly string[]): string | null {
  const shared = ours.filter((version) => theirs.some((other) => compareVersions(version, other) === 0));
  if (shared.length === 0) return null;
  return shared.reduce((best, version) => (compareVersions(version, best) > 0 ? version : best));
}
