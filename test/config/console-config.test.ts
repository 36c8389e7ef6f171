/** `console:` keys: defaults, the password as a secret, and the warnings about a console beyond loopback. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWarnings } from '../../src/config/config-warnings.js';
import { loadConfig } from '../../src/config/load-config.js';
import { scrubSecrets } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';

function configWith(dir: string, yaml: string): string {
  const file = path.join(dir, 'connector.yaml');
  fs.writeFileSync(
    file,
    `platform: { baseUrl: https://p.example, token: t0ken-value, sourceSystem: erp }
flows: [{ name: requests, kind: requests, inbox: ${dir}/in, mapping: ${dir}/m.yaml, results: ${dir}/out }]
${yaml}`,
  );
  return file;
}

describe('console config', () => {
  it('defaults to on, Russian, 8-hour sessions and no password', async () => {
    await withTempDir((dir) => {
      expect(loadConfig(configWith(dir, ''), {}).console).toEqual({ enabled: true, language: 'ru', sessionTtlMinutes: 480 });
    });
  });

  it('reads the password like every secret and keeps it out of the log', async () => {
    await withTempDir((dir) => {
      fs.mkdirSync(path.join(dir, 'credentials'));
      fs.writeFileSync(path.join(dir, 'credentials', 'console-password'), 'console-pass-4711\n');
      const config = loadConfig(configWith(dir, 'console: { password: { fromCredential: console-password }, language: en }'), {
        CREDENTIALS_DIRECTORY: path.join(dir, 'credentials'),
      });
      expect(config.console.password).toBe('console-pass-4711');
      expect(scrubSecrets('password console-pass-4711')).toBe('password [REDACTED]');
    });
  });

  it('warns about a console beyond loopback, with or without a password', async () => {
    await withTempDir((dir) => {
      expect(configWarnings(loadConfig(configWith(dir, 'metrics: { host: 0.0.0.0 }'), {}))).toEqual([expect.stringContaining('console.password is not set')]);
      expect(configWarnings(loadConfig(configWith(dir, 'metrics: { host: 0.0.0.0 }\nconsole: { password: a-long-passphrase }'), {}))).toEqual([
        expect.stringContaining('over plain HTTP'),
      ]);
      expect(configWarnings(loadConfig(configWith(dir, 'metrics: { host: 0.0.0.0 }\nconsole: { enabled: false }'), {}))).toEqual([]);
      expect(configWarnings(loadConfig(configWith(dir, 'console: { password: a-long-passphrase }'), {}))).toEqual([]);
    });
  });

  it('warns about a console password too short to be one, wherever the console listens', async () => {
    await withTempDir((dir) => {
      expect(configWarnings(loadConfig(configWith(dir, 'console: { password: "0001" }'), {}))).toEqual([
        expect.stringMatching(/^console\.password is 4 characters long; use at least 12/),
      ]);
      expect(configWarnings(loadConfig(configWith(dir, 'metrics: { host: 0.0.0.0 }\nconsole: { password: "0001" }'), {}))).toEqual([
        expect.stringContaining('console.password is 4 characters long'),
        expect.stringContaining('over plain HTTP'),
      ]);
    });
  });
});
