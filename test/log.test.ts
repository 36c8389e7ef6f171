import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, registerSecret, scrubSecrets, REDACTED } from '../src/log.js';

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream };
}

describe('log redaction', () => {
  it('blanks the token path segment of any platform URL, and registered secrets anywhere', async () => {
    registerSecret('tok-SECRET-4242');
    registerSecret('whsec Ünïcode/+');
    const { lines, stream } = capture();
    const log = createLogger({ destination: stream });
    log.info({ url: 'http://p/api-gateway/api/v1/some-other-token/requests' }, 'sent');
    log.error({ err: new Error('connect failed for tok-SECRET-4242') }, 'boom');
    log.info({ nested: { deeper: `x=${encodeURIComponent('whsec Ünïcode/+')}` } }, 'encoded secret');
    log.info({ token: 'plain-field-token', headers: { 'x-service-signature': 'sha256=abc' } }, 'by name');
    log.flush();
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join('');
    expect(text).not.toContain('some-other-token');
    expect(text).not.toContain('tok-SECRET-4242');
    expect(text).not.toContain(encodeURIComponent('whsec Ünïcode/+'));
    expect(text).not.toContain('plain-field-token');
    expect(text).not.toContain('sha256=abc');
    expect(text.split(REDACTED).length - 1).toBeGreaterThanOrEqual(5);
  });

  it('scrubs strings outside the logger too (CLI messages)', () => {
    registerSecret('cli-secret-999');
    expect(scrubSecrets('GET /api-gateway/api/v1/abc/supplier/orders/ORD-2026-000001/confirm cli-secret-999')).toBe(
      `GET /api-gateway/api/v1/${REDACTED}/supplier/orders/ORD-2026-000001/confirm ${REDACTED}`,
    );
  });
});
