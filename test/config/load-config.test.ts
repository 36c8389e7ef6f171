import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { isConnectorError } from '../../src/errors.js';
import { withTempDir } from '../helpers/temp-dir.js';

const minimal = `
stateDir: ./var/state
platform:
  baseUrl: http://127.0.0.1:8787
  token: \${PROCUREMENT_TOKEN}
  sourceSystem: erp-main
flows:
  - name: requests
    kind: requests
    inbox: ./var/inbox
    mapping: config/mappings/1c-requests.yaml
    results: ./var/import
`;

describe('loadConfig', () => {
  it('substitutes ${ENV}, applies defaults and freezes', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'c.yaml');
      fs.writeFileSync(file, minimal);
      const config = loadConfig(file, { PROCUREMENT_TOKEN: 'tok-123456' });
      expect(config.platform.token).toBe('tok-123456');
      expect(config.delivery.concurrency).toBe(4);
      expect(config.flows[0]!.intake.stableForMs).toBe(2000);
      expect(path.isAbsolute(config.flows[0]!.inbox)).toBe(true);
      expect(Object.isFrozen(config.flows[0])).toBe(true);
    });
  });

  it('reads secrets from a file and from a systemd credential', async () => {
    await withTempDir((dir) => {
      fs.writeFileSync(path.join(dir, 'token'), 'file-token-1\n');
      fs.writeFileSync(path.join(dir, 'platform-token'), 'cred-token-2');
      const file = path.join(dir, 'c.yaml');
      fs.writeFileSync(file, minimal.replace('${PROCUREMENT_TOKEN}', `{ fromFile: ${path.join(dir, 'token')} }`));
      expect(loadConfig(file, {}).platform.token).toBe('file-token-1');
      fs.writeFileSync(file, minimal.replace('${PROCUREMENT_TOKEN}', '{ fromCredential: platform-token }'));
      expect(loadConfig(file, { CREDENTIALS_DIRECTORY: dir }).platform.token).toBe('cred-token-2');
    });
  });

  it('says SECRET_UNAVAILABLE when only a secret is missing', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'c.yaml');
      fs.writeFileSync(file, minimal.replace('${PROCUREMENT_TOKEN}', `{ fromFile: ${path.join(dir, 'missing-token')} }`));
      expect(() => loadConfig(file, {})).toThrow(expect.objectContaining({ code: 'SECRET_UNAVAILABLE' }));
      fs.writeFileSync(file, minimal.replace('${PROCUREMENT_TOKEN}', '{ fromCredential: platform-token }'));
      expect(() => loadConfig(file, {})).toThrow(/CREDENTIALS_DIRECTORY is not set/);
    });
  });

  it('lists every problem with its key path', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'c.yaml');
      fs.writeFileSync(file, minimal.replace('kind: requests', 'kind: orders').replace('http://127.0.0.1:8787', 'not a url'));
      try {
        loadConfig(file, {});
        expect.unreachable();
      } catch (error) {
        expect(isConnectorError(error, 'CONFIG_INVALID')).toBe(true);
        const message = (error as Error).message;
        expect(message).toContain('platform.token: environment variable PROCUREMENT_TOKEN is not set');
        expect(message).toContain('platform.baseUrl');
        expect(message).toContain('flows[0].kind');
      }
    });
  });

  it('refuses a platform timeout longer than Node keeps a timer (a longer one would fire at once and fail every attempt)', async () => {
    await withTempDir((dir) => {
      const file = path.join(dir, 'c.yaml');
      fs.writeFileSync(
        file,
        minimal.replace('  sourceSystem: erp-main', '  sourceSystem: erp-main\n  attemptTimeoutMs: 2147483648\n  headersTimeoutMs: 99999999999'),
      );
      try {
        loadConfig(file, { PROCUREMENT_TOKEN: 't' });
        expect.unreachable();
      } catch (error) {
        expect(isConnectorError(error, 'CONFIG_INVALID')).toBe(true);
        expect((error as Error).message).toMatch(/platform\.attemptTimeoutMs: must be at most 2147483647/);
        expect((error as Error).message).toMatch(/platform\.headersTimeoutMs: must be at most 2147483647/);
      }
    });
  });
});
