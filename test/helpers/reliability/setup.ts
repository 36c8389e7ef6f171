/**
 * What every reliability scenario shares: a free port, the folders of one daemon, its config file
 * (small intake and backoff times, the sandbox in the test process), distinctive secrets, and the
 * checks on folders afterwards.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import YAML from 'yaml';

/** Distinctive values: if any of them shows up in a byte the daemon wrote, it leaked. */
export const SECRETS = {
  token: 'tok-RELIAB-4f9c1e7a-d00d-SECRET',
  supplierToken: 'sup-RELIAB-8b2a6c13-beef-SECRET',
  webhookSecret: 'whsec-RELIAB-51ab77e0-cafe-SECRET',
  /** A second (rotated) webhook secret, also accepted. */
  webhookSecretOld: 'whsec-RELIAB-OLD-93d2f4aa-SECRET',
} as const;

/** Bind port 0, read the port, release it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface DaemonLayout {
  root: string;
  configFile: string;
  stateDir: string;
  inbox: string;
  results: string;
  importFolder: string;
  logDir: string;
  webhookPort: number;
}

export interface ConfigOverrides {
  /** The flow's mapping file (default `config/mappings/1c-requests.yaml`). */
  mapping?: string;
  /** Merged over the flow's `intake:`. */
  intake?: Record<string, unknown>;
  /** Merged over `delivery:`. */
  delivery?: Record<string, unknown>;
  /** Merged over `export:`. */
  export?: Record<string, unknown>;
  /** Merged over `webhook:`. */
  webhook?: Record<string, unknown>;
  /** More keys of the flow (`enterpriseData`). */
  flow?: Record<string, unknown>;
}

/** Create the folders and write the config of one daemon pointed at `platformUrl`. */
export async function prepareDaemon(root: string, platformUrl: string, overrides: ConfigOverrides = {}): Promise<DaemonLayout> {
  const layout: DaemonLayout = {
    root,
    configFile: path.join(root, 'connector.yaml'),
    stateDir: path.join(root, 'state'),
    inbox: path.join(root, 'inbox'),
    results: path.join(root, 'results'),
    importFolder: path.join(root, 'import'),
    logDir: path.join(root, 'logs'),
    webhookPort: await freePort(),
  };
  for (const dir of [layout.stateDir, layout.inbox, layout.results, layout.importFolder, layout.logDir]) fs.mkdirSync(dir, { recursive: true });
  const config = {
    stateDir: layout.stateDir,
    shutdownTimeoutMs: 8_000,
    platform: {
      baseUrl: platformUrl,
      token: SECRETS.token,
      sourceSystem: 'erp-reliability',
      connectTimeoutMs: 2_000,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
    },
    flows: [
      {
        name: 'requests',
        kind: 'requests',
        inbox: layout.inbox,
        mapping: overrides.mapping ?? path.resolve('config/mappings/1c-requests.yaml'),
        results: layout.results,
        intake: { stableForMs: 200, minAgeMs: 200, rescanIntervalMs: 500, ...overrides.intake },
        ...overrides.flow,
      },
    ],
    delivery: {
      concurrency: 4,
      pollIntervalMs: 100,
      leaseMs: 10_000,
      backoff: { baseMs: 100, capMs: 1_000 },
      circuit: { probeIntervalMs: 200 },
      ...overrides.delivery,
    },
    webhook: { host: '127.0.0.1', port: layout.webhookPort, secrets: [SECRETS.webhookSecret, SECRETS.webhookSecretOld], ...overrides.webhook },
    export: { folder: layout.importFolder, mapping: path.resolve('config/mappings/status-export.yaml'), ...overrides.export },
    metrics: { enabled: false },
    sandbox: { enabled: false, supplierToken: SECRETS.supplierToken },
    schedules: { retrySweep: '* * * * * *' },
    log: { level: 'info' },
  };
  fs.writeFileSync(layout.configFile, YAML.stringify(config));
  return layout;
}

/** Regular files directly in `dir` (none when it does not exist). */
export function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Every file under `dir`, recursively (symlinks listed, not followed). */
export function walkFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walkFiles(full));
    else out.push(full);
  }
  return out;
}

/** Files archived by intake: `archive/<date>/<id>-<name>`, reports excluded. */
export function archivedFiles(inbox: string): string[] {
  return walkFiles(path.join(inbox, 'archive')).filter((f) => !/\.errors\.(json|csv)$/.test(f));
}

/** Files in `rejected/`, reports excluded. */
export function rejectedFiles(inbox: string): string[] {
  return filesIn(path.join(inbox, 'rejected')).filter((f) => !/\.errors\.(json|csv)$/.test(f));
}

/** The error reports in `rejected/`, joined, for a failed assertion to say why a file was rejected. */
export function rejectionReports(inbox: string): string {
  const dir = path.join(inbox, 'rejected');
  return filesIn(dir)
    .filter((f) => f.endsWith('.errors.json'))
    .map((f) => `${f}: ${fs.readFileSync(path.join(dir, f), 'utf8')}`)
    .join('\n');
}

/** The bytes each secret may take in a file: as written, URL-encoded. */
function needles(secrets: readonly string[]): Buffer[] {
  return [...new Set(secrets.flatMap((s) => [s, encodeURIComponent(s)]))].map((s) => Buffer.from(s, 'utf8'));
}

/** Every file under `roots` whose bytes contain one of `secrets`, with the secret found. The config file is the only place they may be. */
export function findSecrets(roots: readonly string[], secrets: readonly string[], allowed: readonly string[] = []): { file: string; secret: string }[] {
  const found: { file: string; secret: string }[] = [];
  const search = needles(secrets);
  for (const root of roots) {
    for (const file of walkFiles(root)) {
      if (allowed.includes(file)) continue;
      const stat = fs.lstatSync(file);
      if (!stat.isFile()) continue;
      const bytes = fs.readFileSync(file);
      for (const needle of search) if (bytes.includes(needle)) found.push({ file, secret: needle.toString('utf8') });
    }
  }
  return found;
}
