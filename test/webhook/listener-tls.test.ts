/**
 * The listener speaking TLS itself: certificates made here with openssl, a TLS 1.1 client refused,
 * the sandbox's sender trusting the self-signed certificate, and a reload that switches the
 * certificate for new connections (the listener's `reload`, and the daemon's SIGHUP `reload`).
 */
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { startDaemon } from '../../src/daemon/index.js';
import { silentLogger } from '../../src/log.js';
import { getOrderStatus } from '../../src/store/events.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { REQUESTS_FLOW, writeConfig } from '../helpers/with-daemon.js';
import { createAccepted } from '../helpers/sandbox-calls.js';
import { handshakeWithTls11, httpsGet, makeCertificate, renewableCertificate, servedFingerprint } from '../helpers/tls-material.js';
import { withListener, SECRET } from '../helpers/with-listener.js';

const defaultMinVersion = tls.DEFAULT_MIN_VERSION;
afterEach(() => {
  tls.DEFAULT_MIN_VERSION = defaultMinVersion;
});

describe('webhook listener over TLS', () => {
  it('serves https with the configured certificate and refuses a TLS 1.1 client, before and after a reload', async () => {
    await withTempDir(async (dir) => {
      const first = makeCertificate(dir, 'first');
      const second = makeCertificate(dir, 'second');
      // As if Node ran with --tls-min-v1.0: the listener must still insist on TLS 1.2 itself.
      tls.DEFAULT_MIN_VERSION = 'TLSv1';
      await withListener({ config: { tls: { cert: first.cert, key: first.key } } }, async ({ url, listener }) => {
        expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/webhooks\/service$/);
        expect(await httpsGet(url, '/healthz', first.cert)).toEqual({ status: 200, body: '{"status":"ok"}' });
        expect(await servedFingerprint(url)).toBe(first.fingerprint256);
        expect(await handshakeWithTls11(url)).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');

        listener.reload({ cert: second.cert, key: second.key });
        expect(await servedFingerprint(url)).toBe(second.fingerprint256);
        expect(await httpsGet(url, '/healthz', second.cert)).toMatchObject({ status: 200 });
        expect(await handshakeWithTls11(url)).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
      });
    });
  });

  it('keeps the certificate in use when the new pair does not load', async () => {
    await withTempDir(async (dir) => {
      const first = makeCertificate(dir, 'first');
      const second = makeCertificate(dir, 'second');
      await withListener({ config: { tls: { cert: first.cert, key: first.key } } }, async ({ url, listener }) => {
        expect(() => listener.reload({ cert: second.cert, key: first.key })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
        expect(() => listener.reload({ cert: 'not a certificate', key: first.key })).toThrow(/webhook\.tls: certificate and key do not load/);
        expect(await servedFingerprint(url)).toBe(first.fingerprint256);
      });
    });
  });

  it('refuses a certificate on a plain HTTP listener (switching needs a restart)', async () => {
    await withTempDir(async (dir) => {
      const first = makeCertificate(dir, 'first');
      await withListener({}, async ({ url, listener }) => {
        expect(url).toMatch(/^http:\/\//);
        expect(() => listener.reload({ cert: first.cert, key: first.key })).toThrow(/restart/);
      });
    });
  });

  it("takes the sandbox's signed webhooks over https when the sandbox trusts the listener's certificate", async () => {
    await withTempDir(async (dir) => {
      const cert = makeCertificate(dir, 'listener');
      await withListener({ config: { tls: { cert: cert.cert, key: cert.key } } }, async ({ url, db }) => {
        await withSandbox({ webhookUrl: url, webhookSecret: SECRET, webhookCa: cert.cert, timeScale: 0.001 }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          sandbox.setOrderStatus(orderId, 'shipped');
          await sandbox.webhooksIdle();
          expect(sandbox.webhookAttempts().at(-1)).toMatchObject({ httpStatus: 200, outcome: 'delivered' });
          expect(getOrderStatus(db, orderId)).toMatchObject({ status: 'shipped' });
        });
        // Without the certificate the sender refuses the listener: verification stays on.
        await withSandbox({ webhookUrl: url, webhookSecret: SECRET, webhookRetryScheduleMs: [0], timeScale: 0.001 }, async (sandbox) => {
          const { orderId } = await createAccepted(sandbox);
          sandbox.setOrderStatus(orderId, 'shipped');
          await sandbox.webhooksIdle();
          expect(sandbox.webhookAttempts()).toEqual([expect.objectContaining({ outcome: 'failed', error: expect.stringMatching(/self-signed|certificate/i) })]);
        });
      });
    });
  });
});

describe('daemon reload (SIGHUP) with webhook.tls', () => {
  it('re-reads the certificate and key from the config, and keeps the old pair when the new one is bad', async () => {
    await withTempDir(async (dir) => {
      const { first, second, certFile, keyFile, renew } = renewableCertificate(dir);
      const config = writeConfig(
        dir,
        `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:9", token: t0ken-for-tls-test, sourceSystem: erp-test }
flows:
${REQUESTS_FLOW}
webhook:
  port: 0
  secrets: [${SECRET}]
  tls: { cert: { fromFile: ${certFile} }, key: { fromFile: ${keyFile} } }
export: { folder: {dir}/status, mapping: {repo}/config/mappings/status-export.yaml }
metrics: { enabled: false }
`,
      );
      const file = path.join(dir, 'connector.yaml');
      const daemon = await startDaemon({ config, logger: silentLogger, reloadConfig: () => loadConfig(file, {}) });
      try {
        const url = daemon.urls.webhook!;
        expect(url).toMatch(/^https:\/\//);
        expect(await servedFingerprint(url)).toBe(first.fingerprint256);

        renew();
        expect(daemon.reload()).toEqual({ ok: true });
        expect(await servedFingerprint(url)).toBe(second.fingerprint256);

        fs.writeFileSync(keyFile, first.key); // a key that does not fit the certificate
        const rejected = daemon.reload();
        expect(rejected.ok).toBe(false);
        if (!rejected.ok) expect(rejected.errors.join('\n')).toMatch(/webhook\.tls.*certificate and key do not load/s);
        expect(await servedFingerprint(url)).toBe(second.fingerprint256);
      } finally {
        await daemon.stop();
      }
    });
  });
});
