/** A port already in use names the config key that owns it (`src/shared/listen.ts`), for every listener of the daemon. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../../src/errors.js';
import { listenOn, portUnavailable } from '../../src/shared/listen.js';
import { startDaemon } from '../../src/daemon/index.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { REQUESTS_FLOW, writeConfig } from '../helpers/with-daemon.js';

/** A port held by another server for the length of `fn`. */
async function withBusyPort<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const holder = http.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  try {
    return await fn((holder.address() as AddressInfo).port);
  } finally {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
  }
}

describe('listenOn', () => {
  it('a port in use is PORT_UNAVAILABLE naming its key, the port and how to find who holds it', async () => {
    await withBusyPort(async (port) => {
      const server = http.createServer();
      const error = await listenOn(server, { host: '127.0.0.1', port, key: 'webhook.port' }).catch((e: unknown) => e);
      expect(isConnectorError(error, 'PORT_UNAVAILABLE')).toBe(true);
      expect((error as Error).message).toMatch(
        new RegExp(`^webhook\\.port ${port} on 127\\.0\\.0\\.1 is in use by another program.*set webhook\\.port to a free port.*\\(EADDRINUSE\\)$`),
      );
    });
  });

  it('a privileged port and a foreign host say which setting to change; other errors pass as they are', () => {
    const errno = (code: string) => Object.assign(new Error(code), { code });
    expect(portUnavailable(errno('EACCES'), { host: '0.0.0.0', port: 80, key: 'metrics.port' }).message).toContain('set metrics.port to 1024 or above');
    expect(portUnavailable(errno('EADDRNOTAVAIL'), { host: '10.9.9.9', port: 9000, key: 'webhook.port' }).message).toContain(
      'set webhook.host to one of its addresses',
    );
    const other = errno('EMFILE');
    expect(portUnavailable(other, { host: '127.0.0.1', port: 1, key: 'x' })).toBe(other);
  });
});

describe('the daemon with a port in use', () => {
  it.each([
    [
      'webhook.port',
      (port: number) =>
        `webhook: { port: ${port}, secrets: [a-long-webhook-secret-123] }\nexport: { folder: {dir}/import, mapping: {repo}/config/mappings/status-export.yaml }\nmetrics: { port: 0 }`,
    ],
    ['metrics.port', (port: number) => `metrics: { port: ${port} }`],
    ['sandbox.port', (port: number) => `metrics: { port: 0 }\nsandbox: { enabled: true, port: ${port}, demo: false }`],
  ])('does not start, and says %s owns the port', async (key, yaml) => {
    await withTempDir(async (dir) => {
      await withBusyPort(async (port) => {
        const config = writeConfig(
          dir,
          `stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: port-token-123, sourceSystem: erp-test }
flows:${REQUESTS_FLOW}
${yaml(port)}
`,
        );
        const error = await startDaemon({ config, logger: silentLogger }).then(
          async (daemon) => {
            await daemon.stop();
            return null;
          },
          (e: unknown) => e,
        );
        expect(isConnectorError(error, 'PORT_UNAVAILABLE')).toBe(true);
        expect((error as Error).message).toContain(`${key} ${port} on 127.0.0.1 is in use`);
      });
    });
  });
});
