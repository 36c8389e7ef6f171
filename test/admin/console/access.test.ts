/** The console's access rules, the sign-in limiter and the sessions, as tables: each rule is one pure decision. */
import { describe, expect, it } from 'vitest';
import { decideAccess, isLoopbackHostHeader, isSameOrigin, safeNext, type AccessRequest } from '../../../src/admin/console/access.js';
import { addressKey, createLoginLimiter } from '../../../src/admin/console/login-limiter.js';
import { passwordMatches } from '../../../src/admin/console/password.js';
import { createSessionStore, tokensMatch } from '../../../src/admin/console/sessions.js';

const local: AccessRequest = { loopbackListener: true, hostHeader: '127.0.0.1:9464', forwarded: false, signedIn: false, passwordSet: true };

describe('decideAccess', () => {
  it.each<[string, Partial<AccessRequest>, 'read' | 'act', boolean]>([
    ['reads on loopback without signing in', {}, 'read', true],
    ['reads on loopback through localhost', { hostHeader: 'localhost:9464' }, 'read', true],
    ['reads on loopback through [::1]', { hostHeader: '[::1]:9464' }, 'read', true],
    ['never acts without signing in, even on loopback', {}, 'act', false],
    ['acts once signed in', { signedIn: true }, 'act', true],
    ['needs sign-in for reading beyond loopback', { loopbackListener: false, hostHeader: '192.0.2.10:9464' }, 'read', false],
    ['reads beyond loopback once signed in', { loopbackListener: false, hostHeader: '192.0.2.10:9464', signedIn: true }, 'read', true],
    ['needs sign-in when a rebinding page names another host', { hostHeader: 'attacker.example:9464' }, 'read', false],
    ['needs sign-in through a proxy on this host', { forwarded: true }, 'read', false],
    ['needs sign-in with no Host header at all', { hostHeader: undefined }, 'read', false],
  ])('%s', (_name, change, need, allowed) => {
    expect(decideAccess(need, { ...local, ...change }).ok).toBe(allowed);
  });

  it('says when nobody can sign in because no password is set', () => {
    expect(decideAccess('act', { ...local, passwordSet: false })).toEqual({ ok: false, reason: 'no-password' });
    expect(decideAccess('read', { ...local, loopbackListener: false, passwordSet: false })).toEqual({ ok: false, reason: 'no-password' });
  });
});

describe('isLoopbackHostHeader', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.0.0.1:9464', true],
    ['127.1.2.3:80', true],
    ['LOCALHOST:9464', true],
    ['[::1]:9464', true],
    ['[::1]', true],
    ['127.0.0.1.attacker.example', false],
    ['localhost.attacker.example:9464', false],
    ['10.0.0.1:9464', false],
    ['[::2]:9464', false],
    ['', false],
  ])('%s → %s', (host, expected) => expect(isLoopbackHostHeader(host)).toBe(expected));
});

describe('isSameOrigin', () => {
  it.each<[string | undefined, string | undefined, string | undefined, boolean]>([
    ['http://127.0.0.1:9464', undefined, '127.0.0.1:9464', true],
    ['https://console.example.ru', undefined, 'console.example.ru', true],
    ['http://attacker.example', undefined, '127.0.0.1:9464', false],
    ['null', undefined, '127.0.0.1:9464', false],
    ['http://127.0.0.1:9464', undefined, undefined, false],
    [undefined, 'same-origin', '127.0.0.1:9464', true],
    [undefined, 'cross-site', '127.0.0.1:9464', false],
    // curl and scripts send neither; CSRF needs a browser, and browsers send Origin with every POST.
    [undefined, undefined, '127.0.0.1:9464', true],
  ])('Origin %s, Sec-Fetch-Site %s, Host %s → %s', (origin, site, host, expected) => expect(isSameOrigin(origin, site, host)).toBe(expected));
});

describe('safeNext', () => {
  it.each([
    ['/flows/requests/files', '/flows/requests/files'],
    ['/attention?x=1', '/attention?x=1'],
    ['//attacker.example/', '/'],
    ['/\\attacker.example', '/'],
    ['https://attacker.example/', '/'],
    ['/x\r\nSet-Cookie: a=b', '/'],
    [undefined, '/'],
  ])('%s → %s', (next, expected) => expect(safeNext(next)).toBe(expected));
});

describe('the sign-in limiter', () => {
  it('refuses an address after five failures in the window, until the oldest leaves it; a success clears it', () => {
    let now = 0;
    const limiter = createLoginLimiter({ clock: () => now, maxFailures: 5, windowMs: 60_000 });
    for (let i = 0; i < 5; i += 1) {
      expect(limiter.retryAfterMs('127.0.0.1')).toBe(0);
      limiter.fail('127.0.0.1');
      now += 1_000;
    }
    expect(limiter.retryAfterMs('127.0.0.1')).toBe(55_000);
    expect(limiter.retryAfterMs('127.0.0.2')).toBe(0);
    now = 60_001;
    expect(limiter.retryAfterMs('127.0.0.1')).toBe(0);
    limiter.fail('127.0.0.1');
    limiter.succeed('127.0.0.1');
    expect(limiter.retryAfterMs('127.0.0.1')).toBe(0);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped one by its IPv4 address', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb::2'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey(null)).toBe('unknown');
  });

  it('forgets the oldest addresses past its bound', () => {
    const limiter = createLoginLimiter({ clock: () => 0, maxFailures: 1, maxAddresses: 2 });
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) limiter.fail(address);
    expect(limiter.retryAfterMs('10.0.0.1')).toBe(0);
    expect(limiter.retryAfterMs('10.0.0.3')).toBeGreaterThan(0);
  });
});

describe('sessions and secrets', () => {
  it('expires a session after its lifetime and keeps a CSRF token per session', () => {
    let now = 0;
    const sessions = createSessionStore({ ttlMs: 1_000, clock: () => now });
    const a = sessions.create('Анна', '127.0.0.1');
    const b = sessions.create('operator', null);
    expect(a.id).not.toBe(b.id);
    expect(a.csrfToken).not.toBe(b.csrfToken);
    expect(sessions.get(a.id)?.actor).toBe('Анна');
    now = 1_000;
    expect(sessions.get(a.id)).toBeUndefined();
    expect(sessions.get('not-a-session')).toBeUndefined();
  });

  it('compares tokens and passwords exactly', () => {
    expect(tokensMatch('abc', 'abc')).toBe(true);
    expect(tokensMatch('abd', 'abc')).toBe(false);
    expect(tokensMatch('ab', 'abc')).toBe(false);
    expect(tokensMatch(undefined, 'abc')).toBe(false);
    expect(passwordMatches('s3cret', 's3cret')).toBe(true);
    expect(passwordMatches('s3cret ', 's3cret')).toBe(false);
    expect(passwordMatches('anything', undefined)).toBe(false);
  });
});
