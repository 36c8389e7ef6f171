/** The webhook section's new keys and the warnings a config earns without being refused. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWarnings, isLoopback } from '../../src/config/config-warnings.js';
import { loadConfig } from '../../src/config/load-config.js';
import { webhookSchema } from '../../src/config/webhook-schema.js';
import { REDACTED, scrubSecrets } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { makeCertificate } from '../helpers/tls-material.js';

function configWith(dir: string, webhook: string): string {
  const file = path.join(dir, 'c.yaml');
  fs.writeFileSync(
    file,
    `
platform: { baseUrl: "http://127.0.0.1:8787", token: a-platform-token, sourceSystem: erp-main }
flows:
  - { name: requests, kind: requests, inbox: ./var/inbox, mapping: config/mappings/1c-requests.yaml, results: ./var/import }
export: { folder: ./var/status, mapping: config/mappings/status-export.yaml }
webhook:
${webhook}
`,
  );
  return file;
}

describe('webhook config', () => {
  it('bounds what an unauthenticated client can hold by default: 64 KiB bodies, 256 connections', () => {
    const webhook = webhookSchema.parse({ secrets: ['s'] });
    expect(webhook.maxBodyBytes).toBe(65_536);
    expect(webhook.maxConnections).toBe(256);
    expect(webhook.tls).toBeUndefined();
  });

  it('reads webhook.tls like secrets, and registers the key so that nothing can log it', async () => {
    await withTempDir((dir) => {
      const made = makeCertificate(dir, 'listener');
      const file = configWith(
        dir,
        `  secrets: [a-long-enough-webhook-secret]\n  tls: { cert: { fromFile: ${made.certFile} }, key: { fromCredential: webhook-tls-key } }`,
      );
      fs.mkdirSync(path.join(dir, 'credentials'));
      fs.copyFileSync(made.keyFile, path.join(dir, 'credentials', 'webhook-tls-key'));
      const config = loadConfig(file, { CREDENTIALS_DIRECTORY: path.join(dir, 'credentials') });
      expect(config.webhook?.tls).toEqual({ cert: made.cert.trim(), key: made.key.trim() });
      expect(scrubSecrets(`oops: ${config.webhook!.tls!.key}`)).toBe(`oops: ${REDACTED}`);
    });
  });

  it('refuses a certificate and key that do not belong together, at webhook.tls', async () => {
    await withTempDir((dir) => {
      const one = makeCertificate(dir, 'one');
      const two = makeCertificate(dir, 'two');
      const file = configWith(
        dir,
        `  secrets: [a-long-enough-webhook-secret]\n  tls: { cert: { fromFile: ${one.certFile} }, key: { fromFile: ${two.keyFile} } }`,
      );
      expect(() => loadConfig(file, {})).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringMatching(/webhook\.tls: certificate and key do not load/) }),
      );
    });
  });
});

describe('configWarnings', () => {
  it('warns about a webhook secret shorter than 16 characters, naming it by index and never quoting it', async () => {
    await withTempDir((dir) => {
      const config = loadConfig(configWith(dir, '  secrets: [short-secret, a-long-enough-webhook-secret]'), {});
      const warnings = configWarnings(config);
      expect(warnings).toEqual([expect.stringMatching(/^webhook\.secrets\[0\] is 12 characters long; use at least 16/)]);
      expect(warnings.join()).not.toContain('short-secret');
    });
  });

  it('says nothing for a loopback listener with a long secret', async () => {
    await withTempDir((dir) => {
      expect(configWarnings(loadConfig(configWith(dir, '  secrets: [a-long-enough-webhook-secret]'), {}))).toEqual([]);
    });
  });

  it('asks for allowFrom and TLS when the listener takes connections from other hosts', async () => {
    await withTempDir((dir) => {
      const open = loadConfig(configWith(dir, '  host: 0.0.0.0\n  secrets: [a-long-enough-webhook-secret]'), {});
      expect(configWarnings(open)).toEqual([expect.stringContaining('webhook.allowFrom is empty'), expect.stringContaining('set webhook.tls')]);
      const fenced = loadConfig(configWith(dir, '  host: 0.0.0.0\n  allowFrom: [203.0.113.0/24]\n  secrets: [a-long-enough-webhook-secret]'), {});
      expect(configWarnings(fenced)).toEqual([expect.stringContaining('set webhook.tls')]);
    });
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
  ])('isLoopback(%s) is %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});
