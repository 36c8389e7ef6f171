import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../src/errors.js';
import { createLogger, registerSecret, scrubSecrets, serializeError, REDACTED } from '../src/log.js';

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

  it('scrubs a secret of any length, even one of three characters', () => {
    registerSecret('q7Z');
    expect(scrubSecrets('token q7Z in a reason')).toBe(`token ${REDACTED} in a reason`);
  });

  it('serializes errors one way: stack, causes and code kept, secrets scrubbed', async () => {
    registerSecret('ser-secret-777');
    const error = new ConnectorError('STORE_FAILED', 'cannot write ser-secret-777', {
      cause: new Error('disk at /api/v1/tok-in-path/requests'),
      details: { file: 'a.csv' },
    });
    const serialized = serializeError(error);
    expect(serialized).toMatchObject({ type: 'ConnectorError', code: 'STORE_FAILED', details: { file: 'a.csv' } });
    expect(String(serialized.stack)).toMatch(/ConnectorError: cannot write \[REDACTED\]\n\s+at /);
    expect(String(serialized.stack)).toContain('caused by: Error: disk at /api/v1/[REDACTED]/requests');
    expect(JSON.stringify(serialized)).not.toContain('ser-secret-777');
    expect(serializeError('not an error')).toEqual({ type: 'string', message: 'not an error' });

    const { lines, stream } = capture();
    createLogger({ destination: stream }).error({ err: error }, 'failed');
    await new Promise((resolve) => setImmediate(resolve));
    const line = JSON.parse(lines.join('')) as { err: { stack: string; code: string } };
    expect(line.err.code).toBe('STORE_FAILED');
    expect(line.err.stack).toContain('caused by');
  });
});
