/**
 * The shipped configs cannot rot: `config/demo.yaml` and `config/connector.example.yaml` pass the
 * real `check` (config, every flow mapping and its kind, the export mapping), and the example names
 * every config key. The README and the manual are kept honest by `test/docs/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { configSchema } from '../../src/config/schema.js';
import { scrubSecrets } from '../../src/log.js';
import { checkConfigFiles } from '../../src/mapping/run-mapping-commands.js';
import { keyPaths } from '../helpers/config-key-paths.js';
import { withTempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE = path.join(ROOT, 'config/connector.example.yaml');
const DEMO = path.join(ROOT, 'config/demo.yaml');

/** Whether `data` (parsed YAML) holds `keyPath`, looking into every element of arrays. */
function holds(data: unknown, keyPath: string): boolean {
  const [head, ...rest] = keyPath.split('.');
  const isArray = head!.endsWith('[]');
  const key = isArray ? head!.slice(0, -2) : head!;
  if (data === null || typeof data !== 'object' || !(key in data)) return false;
  const value = (data as Record<string, unknown>)[key];
  if (rest.length === 0) return true;
  if (isArray) return Array.isArray(value) && value.some((item) => holds(item, rest.join('.')));
  return holds(value, rest.join('.'));
}

/** The example with its production paths pointed at this checkout and a temp folder. */
function exampleForTest(dir: string): string {
  const text = fs
    .readFileSync(EXAMPLE, 'utf8')
    .replaceAll('/etc/procurement-connector/mappings/', `${path.join(ROOT, 'config/mappings')}/`)
    .replaceAll('/srv/erp/exchange/', `${path.join(dir, 'exchange')}/`)
    .replaceAll('/var/lib/procurement-connector', path.join(dir, 'state'));
  const file = path.join(dir, 'connector.yaml');
  fs.writeFileSync(file, text);
  return file;
}

function writeCredentials(dir: string): string {
  const credentials = path.join(dir, 'credentials');
  fs.mkdirSync(credentials);
  fs.writeFileSync(path.join(credentials, 'platform-token'), 'prod-buyer-token-123\n');
  fs.writeFileSync(path.join(credentials, 'webhook-secret'), 'prod-webhook-secret-456\n');
  fs.writeFileSync(path.join(credentials, 'supplier-token'), 'prod-supplier-token-789\n');
  fs.writeFileSync(path.join(credentials, 'console-password'), 'prod-console-password-0\n');
  return credentials;
}

describe('config/demo.yaml', () => {
  // The demo's paths are relative to the checkout, as `npm start` runs it there.
  const cwd = process.cwd();
  beforeAll(() => process.chdir(ROOT));
  afterAll(() => process.chdir(cwd));

  it('passes check with no environment at all', () => {
    expect(checkConfigFiles(DEMO, {})).toEqual([]);
  });

  it('runs the sandbox in demo mode with tokens that differ', () => {
    const config = loadConfig(DEMO, {});
    expect(config.sandbox).toMatchObject({ enabled: true, demo: true });
    expect(config.sandbox.supplierToken).not.toBe(config.platform.token);
    expect(config.flows.map((f) => [f.name, f.kind])).toEqual([
      ['requests', 'requests'],
      ['requests-xlsx', 'requests'],
      ['requests-xml', 'requests'],
      ['exchange-1c', 'requests'],
      ['confirmations', 'confirmations'],
    ]);
    expect(config.flows.find((f) => f.enterpriseData)?.enterpriseData).toMatchObject({ node: 'ПК', peer: 'УТ' });
  });

  it('has secrets that are not words of its own log (a secret is scrubbed wherever it appears)', () => {
    loadConfig(DEMO, {}); // registers its secrets, as the daemon does
    // With the console password `demo`, these read "[REDACTED] only" and `"[REDACTED]": true`.
    for (const line of ['the built-in sandbox platform is running in-process (demo only; never in production)', '{"demo":true,"webhooks":true}']) {
      expect(scrubSecrets(line)).toBe(line);
    }
  });
});

describe('config/connector.example.yaml', () => {
  it('passes check with its credentials and the supplier token in the environment', async () => {
    await withTempDir((dir) => {
      const env = { CREDENTIALS_DIRECTORY: writeCredentials(dir) };
      const file = exampleForTest(dir);
      expect(checkConfigFiles(file, env)).toEqual([]);
      const config = loadConfig(file, env);
      expect(config.platform.token).toBe('prod-buyer-token-123');
      expect(config.webhook?.secrets).toEqual(['prod-webhook-secret-456']);
      expect(config.flows.find((f) => f.kind === 'confirmations')?.token).toBe('prod-supplier-token-789');
      expect(config.sandbox.enabled).toBe(false);
      expect(config.console.password).toBe('prod-console-password-0');
    });
  });

  it('writes every default as the schema has it', async () => {
    await withTempDir((dir) => {
      const env = { CREDENTIALS_DIRECTORY: writeCredentials(dir) };
      const example = loadConfig(exampleForTest(dir), env);
      const requests = example.flows[0]!;
      // The same config with nothing but the required keys: the example's values must be the defaults.
      const minimal = {
        platform: { baseUrl: example.platform.baseUrl, token: 't', sourceSystem: example.platform.sourceSystem },
        flows: [{ name: requests.name, kind: requests.kind, inbox: requests.inbox, mapping: requests.mapping, results: requests.results }],
        webhook: { secrets: ['s'] },
        export: { folder: '/x', mapping: '/y' },
      };
      const defaults = configSchema.parse(minimal);
      expect(requests.intake).toEqual(defaults.flows[0]!.intake);
      expect(example.delivery).toEqual(defaults.delivery);
      expect({ ...example.webhook, secrets: [] }).toEqual({ ...defaults.webhook, secrets: [] });
      expect(example.export?.mode).toBe(defaults.export?.mode);
      expect(example.export?.batchCron).toBe(defaults.export?.batchCron);
      const { platform: p, ...rest } = example;
      expect({ ...p, token: 't' }).toEqual(defaults.platform);
      for (const key of ['shutdownTimeoutMs', 'retentionDays', 'log', 'schedules', 'metrics', 'sandbox'] as const) {
        expect(rest[key], key).toEqual(defaults[key]);
      }
      // The password has no default: the example names its credential.
      expect({ ...rest.console, password: undefined }).toEqual({ ...defaults.console, password: undefined });
    });
  });

  it('names every config key, as a value or as a commented-out line', () => {
    const text = fs.readFileSync(EXAMPLE, 'utf8');
    const data = YAML.parse(text) as unknown;
    const missing = keyPaths(configSchema).filter((keyPath) => {
      if (holds(data, keyPath)) return false;
      const leaf = keyPath.split('.').at(-1)!.replace('[]', '');
      return !new RegExp(`^\\s*#\\s*${leaf}:`, 'm').test(text);
    });
    expect(missing).toEqual([]);
  });
});
