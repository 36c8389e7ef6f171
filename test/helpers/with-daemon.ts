/**
 * `withDaemon(yaml, fn)`: the real daemon (`startDaemon`) on a config written to a temp folder,
 * stopped whatever happens. Paths in the YAML may use `{dir}` for the temp folder and `{repo}` for
 * the checkout (mappings, samples).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/load-config.js';
import type { Config } from '../../src/config/schema.js';
import { startDaemon, type Daemon, type DaemonOptions } from '../../src/daemon/index.js';
import { silentLogger } from '../../src/log.js';
import { FAST_INTAKE } from './fixtures.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Write `yaml` (with `{dir}` and `{repo}` filled in) to `<dir>/connector.yaml` and load it as the CLI would. */
export function writeConfig(dir: string, yaml: string, env: Record<string, string> = {}): Config {
  const file = path.join(dir, 'connector.yaml');
  fs.writeFileSync(file, yaml.replaceAll('{dir}', dir).replaceAll('{repo}', REPO));
  return loadConfig(file, env);
}

export async function withDaemon<T>(config: Config, fn: (daemon: Daemon) => Promise<T> | T, options: Partial<Omit<DaemonOptions, 'config'>> = {}): Promise<T> {
  const daemon = await startDaemon({ config, logger: silentLogger, ...options });
  try {
    return await fn(daemon);
  } finally {
    await daemon.stop();
  }
}

/** A flow's `intake:` key (indented for a flow of `flows:`) with the shared fast settings, and past dates allowed. */
export const FAST_INTAKE_YAML = `
    intake: ${JSON.stringify({ ...FAST_INTAKE, rejectPastDates: false })}`;

/** The requests flow of most daemon tests: inbox under the temp folder, the 1C mapping, results in {dir}/import. */
export const REQUESTS_FLOW = `
  - name: requests
    kind: requests
    inbox: {dir}/inbox
    mapping: {repo}/config/mappings/1c-requests.yaml
    results: {dir}/import
${FAST_INTAKE_YAML}`;

export const FAST_DELIVERY = `
delivery:
  pollIntervalMs: 50
  backoff: { baseMs: 10, capMs: 100 }
  circuit: { failureThreshold: 1000, probeIntervalMs: 50 }`;
