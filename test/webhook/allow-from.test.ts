import { describe, expect, it } from 'vitest';
import { normaliseAddress } from '../../src/shared/cidr.js';
import { parseAllowList } from '../../src/webhook/allow-from.js';
import { webhookSchema } from '../../src/config/webhook-schema.js';

describe('parseAllowList', () => {
  it('allows everyone when empty', () => {
    expect(parseAllowList([]).allows('203.0.113.9')).toBe(true);
  });

  const list = parseAllowList(['10.0.0.0/8', '192.168.1.7', '2001:db8::/32', '::1/128']);
  it.each([
    ['10.1.2.3', true],
    ['11.0.0.1', false],
    ['192.168.1.7', true],
    ['192.168.1.8', false],
    ['::ffff:10.9.9.9', true],
    ['::ffff:11.9.9.9', false],
    ['2001:db8:1::5', true],
    ['2001:db9::5', false],
    ['::1', true],
    ['127.0.0.1', false],
    ['not-an-address', false],
  ])('%s → %s', (address, allowed) => {
    expect(list.allows(address)).toBe(allowed);
  });

  it('refuses no address at all', () => {
    expect(list.allows(undefined)).toBe(false);
  });

  it.each(['10.0.0.0/33', '10.0.0.0/x', 'example.com', '10.0.0.0/8/1', '::1/129'])('throws on %s', (range) => {
    expect(() => parseAllowList([range])).toThrow();
  });

  it('unmaps IPv4-mapped IPv6 only', () => {
    expect(normaliseAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normaliseAddress('::1')).toBe('::1');
  });

  it('is validated in the config', () => {
    expect(webhookSchema.safeParse({ allowFrom: ['10.0.0.0/8', '::1'] }).success).toBe(true);
    expect(webhookSchema.safeParse({ allowFrom: ['10.0.0.0/40'] }).success).toBe(false);
  });
});
