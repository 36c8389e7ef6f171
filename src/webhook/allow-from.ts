/**
 * The optional source allowlist (`webhook.allowFrom`): CIDR ranges of IPv4 and IPv6, parsed by the
 * one CIDR parser (`shared/cidr.ts`) and checked with node's `BlockList`.
 */
import net from 'node:net';
import { ConnectorError } from '../errors.js';
import { normaliseAddress, parseCidr } from '../shared/cidr.js';

export interface AllowList {
  /** True when no ranges are configured or `address` lies in one of them. */
  allows(address: string | undefined): boolean;
}

/** The allow list of `ranges`. Throws `CONFIG_INVALID` on a range the config check would have refused. */
export function parseAllowList(ranges: readonly string[]): AllowList {
  if (ranges.length === 0) return { allows: () => true };
  const list = new net.BlockList();
  for (const range of ranges) {
    const cidr = parseCidr(range);
    if (!cidr) throw new ConnectorError('CONFIG_INVALID', `webhook.allowFrom: "${range}" is not an IPv4 or IPv6 address or CIDR range`);
    list.addSubnet(cidr.address, cidr.prefix, cidr.family);
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
