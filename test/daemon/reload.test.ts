/**
 * What a reload reads, as a result: every value when all of it is valid, every problem otherwise,
 * and nothing handed to a component unless all of it is valid. Real mapping, config and
 * certificate files in a temp folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import type { ExportFormat } from '../../src/config/export-format-schema.js';
import type { MappingSpec } from '../../src/config/mapping-schema.js';
import type { TlsMaterial } from '../../src/config/webhook-schema.js';
import { readReloadables, reloadAll, rereadReloadables, type ReloadTargets } from '../../src/daemon/reload.js';
import { createLogger, silentLogger } from '../../src/log.js';
import { Writable } from 'node:stream';
import { withTempDir } from '../helpers/temp-dir.js';
import { FAST_INTAKE_YAML, REPO, writeConfig } from '../helpers/with-daemon.js';
import { renewableCertificate } from '../helpers/tls-material.js';

const GOOD_MAPPING = fs.readFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), 'utf8');

/** A requests flow on `<dir>/requests.yaml` (a copy of the shipped 1C mapping), with `extra` YAML after it. */
function setUp(dir: string, extra = '') {
  const mapping = path.join(dir, 'requests.yaml');
  fs.writeFileSync(mapping, GOOD_MAPPING);
  const config = writeConfig(
    dir,
    `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:9", token: t0ken-for-reload-test, sourceSystem: erp-test }
flows:
  - name: requests
    kind: requests
    inbox: {dir}/inbox
    mapping: ${mapping}
    results: {dir}/results
${FAST_INTAKE_YAML}
metrics: { enabled: false }
${extra}`,
  );
  const file = path.join(dir, 'connector.yaml');
  return { mapping, config, file, reloadConfig: () => loadConfig(file, {}) };
}

/** A listener speaking TLS with the certificate and key in these files (and the status export a listener needs). */
function listenerWithTls(certFile: string, keyFile: string): string {
  return `
webhook: { port: 0, secrets: [reload-test-webhook-secret-0123456789], tls: { cert: { fromFile: ${certFile} }, key: { fromFile: ${keyFile} } } }
export: { folder: {dir}/status, mapping: {repo}/config/mappings/status-export.yaml }`;
}

/** Components that note what a reload handed them. */
function recordingTargets() {
  const handed: { mappings: MappingSpec[]; ackFormats: Map<string, ExportFormat>[]; tls: TlsMaterial[] } = { mappings: [], ackFormats: [], tls: [] };
  const targets: ReloadTargets = {
    intakes: new Map([['requests', { reload: (spec: MappingSpec) => void handed.mappings.push(spec) }]]),
    exporter: { reload: (formats) => void handed.ackFormats.push(formats) },
    listener: { reload: (tls) => void handed.tls.push(tls) },
  };
  return { handed, targets };
}

describe('reading what a reload may change', () => {
  it('names a missing mapping file by its path and the config line that names it, at the start and on a reload', async () => {
    await withTempDir((dir) => {
      const { mapping, config, file, reloadConfig } = setUp(dir);
      fs.rmSync(mapping);
      const line =
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .findIndex((l) => l.includes(`mapping: ${mapping}`)) + 1;
      expect(line).toBeGreaterThan(0);
      for (const read of [readReloadables(config), rereadReloadables(config, reloadConfig)]) {
        expect(read.ok).toBe(false);
        if (read.ok) return;
        expect(read.errors).toEqual([
          `flow requests: The mapping file ${mapping} does not exist (ENOENT) (named by flows[0].mapping, line ${line} of ${file})`,
        ]);
      }
    });
  });

  it('gives every mapping and its acknowledgement format when all are valid', async () => {
    await withTempDir((dir) => {
      const { config, reloadConfig } = setUp(dir);
      for (const read of [readReloadables(config), rereadReloadables(config, reloadConfig)]) {
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        expect([...read.reloadables.mappings.keys()]).toEqual(['requests']);
        expect(read.reloadables.ackFormats.get('ack:requests')).toEqual(read.reloadables.mappings.get('requests')!.acknowledgements);
        expect(read.reloadables.tls).toBeUndefined();
      }
    });
  });

  it('gives the problems of an invalid mapping, naming its flow, at the start and at a reload', async () => {
    await withTempDir((dir) => {
      const { config, mapping, reloadConfig } = setUp(dir);
      fs.writeFileSync(mapping, GOOD_MAPPING.replace('groupBy:', 'groupBy_typo:'));
      for (const read of [readReloadables(config), rereadReloadables(config, reloadConfig)]) {
        expect(read.ok).toBe(false);
        if (read.ok) return;
        expect(read.errors).toHaveLength(1);
        expect(read.errors[0]).toMatch(/^flow requests: .*groupBy_typo/s);
      }
    });
  });

  it('refuses a change a reload cannot apply: webhook.tls removed needs a restart', async () => {
    await withTempDir((dir) => {
      const { certFile, keyFile } = renewableCertificate(dir);
      const { config, file, reloadConfig } = setUp(dir, listenerWithTls(certFile, keyFile));
      const unchanged = rereadReloadables(config, reloadConfig);
      expect(unchanged.ok && unchanged.reloadables.tls).toEqual(config.webhook!.tls);

      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/, tls: \{.*\} \}/, ' }'));
      expect(rereadReloadables(config, reloadConfig)).toEqual({
        ok: false,
        errors: ['webhook.tls was removed: a restart is needed to switch the listener to plain HTTP'],
      });
      // At the start the certificate is the config's own: the listener loads it as it starts.
      expect(readReloadables(config).ok).toBe(true);
    });
  });

  it('lists a config file that no longer loads with the mapping problems, all of them', async () => {
    await withTempDir((dir) => {
      const { certFile, keyFile } = renewableCertificate(dir);
      const { config, file, mapping, reloadConfig } = setUp(dir, listenerWithTls(certFile, keyFile));
      fs.writeFileSync(mapping, GOOD_MAPPING.replace('groupBy:', 'groupBy_typo:'));
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('stateDir:', 'stateDir_typo:'));
      const read = rereadReloadables(config, reloadConfig);
      expect(read.ok).toBe(false);
      if (read.ok) return;
      expect(read.errors).toHaveLength(2);
      expect(read.errors[0]).toMatch(/^flow requests: .*groupBy_typo/s);
      expect(read.errors[1]).toMatch(/stateDir_typo/);
    });
  });
});

describe('reloadAll', () => {
  it('hands every component its new value when all of it is valid', async () => {
    await withTempDir((dir) => {
      const { config, reloadConfig } = setUp(dir);
      const { handed, targets } = recordingTargets();
      expect(reloadAll(config, reloadConfig, targets, silentLogger)).toEqual({ ok: true });
      expect(handed.mappings).toHaveLength(1);
      expect([...handed.ackFormats[0]!.keys()]).toEqual(['ack:requests']);
      expect(handed.tls).toEqual([]); // the listener speaks plain HTTP: no certificate to hand
    });
  });

  it('hands nothing to anyone when something is invalid', async () => {
    await withTempDir((dir) => {
      const { config, mapping, reloadConfig } = setUp(dir);
      fs.writeFileSync(mapping, GOOD_MAPPING.replace('groupBy:', 'groupBy_typo:'));
      const { handed, targets } = recordingTargets();
      const result = reloadAll(config, reloadConfig, targets, silentLogger);
      expect(result.ok).toBe(false);
      expect(handed).toEqual({ mappings: [], ackFormats: [], tls: [] });
    });
  });
});

describe('a reload and the exchange’s codes', () => {
  /** An exchange flow with codes ПК and УТ, on the shipped EnterpriseData mapping. */
  function exchangeSetUp(dir: string) {
    const config = writeConfig(
      dir,
      `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:9", token: t0ken-for-reload-test, sourceSystem: erp-test }
flows:
  - name: exchange-1c
    kind: requests
    inbox: {dir}/exchange
    mapping: {repo}/config/mappings/enterprisedata-orders.yaml
    results: {dir}/results
    enterpriseData: { node: ПК, peer: УТ }
metrics: { enabled: false }
`,
    );
    const file = path.join(dir, 'connector.yaml');
    return { config, file, reloadConfig: () => loadConfig(file, {}) };
  }

  function capturingLogger() {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    return { lines, logger: createLogger({ level: 'info', destination: sink }) };
  }

  it('warns, naming the flow, that new codes in the config file apply at restart; the mappings are still reloaded', async () => {
    await withTempDir((dir) => {
      const { config, file, reloadConfig } = exchangeSetUp(dir);
      const unchanged = rereadReloadables(config, reloadConfig);
      expect(unchanged.ok && unchanged.warnings).toEqual([]);

      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('node: ПК', 'node: PC'));
      const read = rereadReloadables(config, reloadConfig);
      expect(read.ok && read.warnings).toEqual([
        'flow exchange-1c: enterpriseData.node (ПК → PC) changed in the config file; a reload does not apply enterpriseData: the flow keeps node ПК, peer УТ until a restart (systemctl restart procurement-connector)',
      ]);

      const handed: MappingSpec[] = [];
      const { lines, logger } = capturingLogger();
      const targets: ReloadTargets = {
        intakes: new Map([['exchange-1c', { reload: (spec: MappingSpec) => void handed.push(spec) }]]),
        exporter: { reload: () => undefined },
        listener: null,
      };
      expect(reloadAll(config, reloadConfig, targets, logger)).toEqual({ ok: true });
      expect(handed).toHaveLength(1);
      expect(lines).toContainEqual(
        expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/^flow exchange-1c: enterpriseData\.node \(ПК → PC\).*restart/) }),
      );
    });
  });

  it('warns that the codes were not compared when the config file no longer loads, and reloads the mappings all the same', async () => {
    await withTempDir((dir) => {
      const { config, file, reloadConfig } = exchangeSetUp(dir);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('stateDir:', 'stateDir_typo:'));
      const read = rereadReloadables(config, reloadConfig);
      expect(read.ok && read.warnings).toEqual([
        expect.stringMatching(/^the config file could not be read again, so changes to enterpriseData were not looked for: .*stateDir_typo/s),
      ]);
    });
  });
});
