/**
 * `withConsoleDaemon(options, fn)`: the real daemon with the in-process sandbox, real folders and
 * the console on a free admin port, stopped whatever happens. The requests flow reads the 1C
 * mapping from {dir}/mapping.yaml (a copy, so a test can break and fix it); delivery is fast and
 * gives up after two attempts, so a failing sandbox dead-letters a request quickly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startDaemon, type Daemon } from '../../../src/daemon/index.js';
import { silentLogger, type Logger } from '../../../src/log.js';
import { openStore, storePath, type Db } from '../../../src/store/open-store.js';
import { withTempDir } from '../temp-dir.js';
import { REPO, writeConfig } from '../with-daemon.js';

export interface ConsoleDaemonOptions {
  /** `metrics.host`; default 127.0.0.1. */
  host?: string;
  /** `console.password`; null leaves it unset. Default `operator-secret`. */
  password?: string | null;
  language?: 'ru' | 'en';
  /** Extra YAML appended at the top level. */
  extra?: string;
  /** Where the daemon logs; default nowhere. */
  logger?: Logger;
  /** `console.enabled: false`. */
  disabled?: boolean;
  /** More flows (YAML items of `flows:`, indented by two spaces), after the requests flow. */
  extraFlows?: string;
  /** Send to this platform instead of the in-process sandbox (which is then off). */
  platformUrl?: string;
  /** `delivery.circuit.probeIntervalMs`; default 50. */
  probeIntervalMs?: number;
  /** Fill the store before the daemon opens it (history at chosen times, `history-rows.ts`). */
  seed?: (db: Db) => void;
}

export interface ConsoleDaemon {
  daemon: Daemon;
  dir: string;
  /** `http://127.0.0.1:<port>` of the admin listener. */
  url: string;
  inbox: string;
}

export const PASSWORD = 'operator-secret';

export async function withConsoleDaemon<T>(options: ConsoleDaemonOptions, fn: (c: ConsoleDaemon) => Promise<T>): Promise<T> {
  return withTempDir(async (dir) => {
    fs.copyFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), path.join(dir, 'mapping.yaml'));
    const password = options.password === undefined ? PASSWORD : options.password;
    const config = writeConfig(
      dir,
      `
stateDir: {dir}/state
platform: { baseUrl: ${options.platformUrl ?? 'http://127.0.0.1:1'}, token: console-test-token, sourceSystem: erp-test }
flows:
  - name: requests
    kind: requests
    inbox: {dir}/inbox
    mapping: {dir}/mapping.yaml
    results: {dir}/import
    intake: { stableForMs: 50, minAgeMs: 0, rescanIntervalMs: 200, rejectPastDates: false }
${options.extraFlows ?? ''}
delivery:
  pollIntervalMs: 50
  backoff: { baseMs: 10, capMs: 50, maxAttempts: 2 }
  circuit: { failureThreshold: 1000, probeIntervalMs: ${options.probeIntervalMs ?? 50} }
webhook: { port: 0, secrets: [console-test-webhook-secret] }
export: { folder: {dir}/import, mapping: {repo}/config/mappings/status-export.yaml }
metrics: { host: ${options.host ?? '127.0.0.1'}, port: 0 }
sandbox: { enabled: ${options.platformUrl ? 'false' : 'true'}, port: 0, demo: false }
console:
  enabled: ${options.disabled ? 'false' : 'true'}
  language: ${options.language ?? 'en'}
${password === null ? '' : `  password: ${password}`}
${options.extra ?? ''}
`,
    );
    if (options.seed) {
      const db = openStore(storePath(path.join(dir, 'state')));
      try {
        options.seed(db);
      } finally {
        db.close();
      }
    }
    const daemon = await startDaemon({ config, logger: options.logger ?? silentLogger });
    try {
      // Bound beyond loopback (0.0.0.0), the listener is still reached through 127.0.0.1 here: tests talk to loopback only.
      const url = daemon.urls.admin!.replace('0.0.0.0', '127.0.0.1');
      return await fn({ daemon, dir, url, inbox: path.join(dir, 'inbox') });
    } finally {
      await daemon.stop();
    }
  });
}
