/**
 * Failed sign-ins, limited per client address: after `maxFailures` failures within `windowMs`, the
 * address is refused (429, with Retry-After) until the oldest of them leaves the window; the
 * password is not even compared meanwhile. An IPv6 client is counted by its /64, since one host
 * usually holds a whole /64. A success clears the address. Pure apart from the map it keeps.
 */
import net from 'node:net';
import type { Clock } from '../../shared/types.js';
import { normaliseAddress } from '../../shared/cidr.js';

export interface LoginLimiter {
  /** 0 when the address may try now, else how long it must wait (ms). */
  retryAfterMs(address: string | null): number;
  fail(address: string | null): void;
  succeed(address: string | null): void;
}

export interface LoginLimitOptions {
  /** Failures allowed within the window. Default 5. */
  maxFailures?: number;
  /** Default 15 minutes. */
  windowMs?: number;
  clock: Clock;
  /** Addresses remembered at most (the oldest are forgotten first). Default 10,000. */
  maxAddresses?: number;
}

export function createLoginLimiter(options: LoginLimitOptions): LoginLimiter {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const failures = new Map<string, number[]>();

  const recent = (key: string): number[] => {
    const since = options.clock() - windowMs;
    const kept = (failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  };

  return {
    retryAfterMs(address) {
      const times = recent(addressKey(address));
      if (times.length < maxFailures) return 0;
      return Math.max(1, times[times.length - maxFailures]! + windowMs - options.clock());
    },
    fail(address) {
      const key = addressKey(address);
      const times = recent(key);
      failures.delete(key);
      failures.set(key, [...times.slice(-maxFailures), options.clock()]);
      while (failures.size > maxAddresses) failures.delete(failures.keys().next().value!);
    },
    succeed(address) {
      failures.delete(addressKey(address));
    },
  };
}

/** What failures are counted under: the address, an IPv6 address by its first 64 bits. */
export function addressKey(address: string | null): string {
  if (!address) return 'unknown';
  const plain = normaliseAddress(address);
  if (net.isIPv6(plain)) return `${expandIpv6(plain).slice(0, 4).join(':')}::/64`;
  return plain;
}

function expandIpv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = address.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const fill = address.includes('::') ? new Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0') : [];
  return [...left, ...fill, ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
}
