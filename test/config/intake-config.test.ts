/** `intake:` the keys all flows' intakes share: how many files are read and recorded at once. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../../src/errors.js';
import { loadConfig } from '../../src/config/load-config.js';
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

function problemsOf(file: string): string {
  try {
    loadConfig(file, {});
  } catch (error) {
    expect(isConnectorError(error, 'CONFIG_INVALID')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('the config was accepted');
}

describe('intake config', () => {
  it('takes two files at once across the flows by default', async () => {
    await withTempDir((dir) => {
      expect(loadConfig(configWith(dir, ''), {}).intake).toEqual({ concurrentFiles: 2 });
      expect(loadConfig(configWith(dir, 'intake: {}'), {}).intake).toEqual({ concurrentFiles: 2 });
    });
  });

  it('reads concurrentFiles from 1 to 64', async () => {
    await withTempDir((dir) => {
      expect(loadConfig(configWith(dir, 'intake: { concurrentFiles: 1 }'), {}).intake.concurrentFiles).toBe(1);
      expect(loadConfig(configWith(dir, 'intake: { concurrentFiles: 64 }'), {}).intake.concurrentFiles).toBe(64);
    });
  });

  it.each([
    ['0', /intake\.concurrentFiles/],
    ['65', /intake\.concurrentFiles/],
    ['1.5', /intake\.concurrentFiles/],
    ['"two"', /intake\.concurrentFiles/],
  ])('refuses concurrentFiles: %s, naming the key', async (value, message) => {
    await withTempDir((dir) => {
      expect(problemsOf(configWith(dir, `intake: { concurrentFiles: ${value} }`))).toMatch(message);
    });
  });

  it('refuses an unknown key under intake (a per-flow key belongs in flows[].intake)', async () => {
    await withTempDir((dir) => {
      expect(problemsOf(configWith(dir, 'intake: { maxFileBytes: 1000 }'))).toMatch(/intake.*maxFileBytes/);
    });
  });
});
