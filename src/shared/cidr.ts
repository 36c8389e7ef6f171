/**
 * The one CIDR parser: `10.0.0.0/8`, `::1/128`, or a bare address (a /32 or a /128). The config
 * validates `webhook.allowFrom` with it and the listener builds its allow list from it, so the two
 * can never disagree about what a range means. An IPv4 address seen on a dual-stack socket as
 * `::ffff:10.1.2.3` is read as `10.1.2.3`.
 */
import net from 'node:net';

export interface CidrRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `::ffff:10.1.2.3` → `10.1.2.3`; other addresses unchanged. */
export function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** The range, or null when `range` is not an address or a CIDR range with a prefix in bounds. */
export function parseCidr(range: string): CidrRange | null {
  const [rawAddress = '', rawPrefix, extra] = range.trim().split('/');
  const address = normaliseAddress(rawAddress);
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (rawPrefix !== undefined && !/^\d{1,3}$/.test(rawPrefix)) return null;
  const prefix = rawPrefix === undefined ? max : Number(rawPrefix);
  if (prefix > max) return null;
  return { address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
}
