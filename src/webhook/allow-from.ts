/**
 * The optional source allowlist (`webhook.allowFrom`): CIDR ranges of IPv4 and IPv6. An IPv4
 * client seen on a dual-stack socket as `::ffff:10.1.2.3` is matched as `10.1.2.3`.
 */
import net from 'node:net';

export interface AllowList {
  /** True when no ranges are configured or `address` lies in one of them. */
  allows(address: string | undefined): boolean;
}

/** Parse `10.0.0.0/8`, `::1/128`, or a bare address (a /32 or /128). Throws on anything else. */
export function parseAllowList(ranges: readonly string[]): AllowList {
  if (ranges.length === 0) return { allows: () => true };
  const list = new net.BlockList();
  for (const range of ranges) {
    const [rawAddress, rawPrefix, extra] = range.trim().split('/');
    const address = normaliseAddress(rawAddress ?? '');
    const family = net.isIP(address);
    if (family === 0 || extra !== undefined) throw new Error(`"${range}" is not an IPv4 or IPv6 address or CIDR range`);
    const max = family === 4 ? 32 : 128;
    const prefix = rawPrefix === undefined ? max : Number(rawPrefix);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (rawPrefix !== undefined && !/^\d+$/.test(rawPrefix))) {
      throw new Error(`"${range}" has an invalid prefix length (0-${max})`);
    }
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    allows(remote) {
      if (!remote) return false;
      const address = normaliseAddress(remote);
      const family = net.isIP(address);
      if (family === 0) return false;
      return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** `::ffff:10.1.2.3` → `10.1.2.3`; other addresses unchanged. */
export function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}
