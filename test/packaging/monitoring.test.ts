/**
 * packaging/monitoring/: the alert rules pass promtool (syntax, and their own unit tests), every
 * metric the rules and the dashboard read is one a real daemon exports, and the dashboard is one
 * Grafana imports (an input for the data source, the flow and instance variables, every panel with
 * a data source, a title and a query promtool accepts).
 *
 * promtool comes from test/helpers/ensure-promtool.sh (npm test's pretest runs it too): Debian's, or
 * taken out of Debian's prometheus package into .cache/promtool/.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ERROR_CODES } from '../../src/errors.js';
import { listFiles } from '../helpers/files.js';
import { parseExposition, queryableNames, selectorsOf, type Exposition } from '../helpers/promql-names.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';
import { FAST_DELIVERY, REPO, REQUESTS_FLOW, withDaemon, writeConfig } from '../helpers/with-daemon.js';

const MONITORING = path.join(REPO, 'packaging/monitoring');
const ALERTS = path.join(MONITORING, 'alerts.yml');
const DASHBOARD = path.join(MONITORING, 'grafana-dashboard.json');
const run = promisify(execFile);

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface Target {
  expr?: string;
  refId?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id: number;
  type: string;
  title?: string;
  datasource?: { type?: string; uid?: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  query: string | { query: string };
  datasource?: { uid?: string };
}

const rules = (): AlertRule[] => (YAML.parse(fs.readFileSync(ALERTS, 'utf8')) as { groups: { rules: AlertRule[] }[] }).groups.flatMap((g) => g.rules);
const dashboard = () =>
  JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as {
    schemaVersion: number;
    __inputs: { name: string; type: string; pluginId: string }[];
    templating: { list: Variable[] };
    panels: Panel[];
  };
const variableQuery = (v: Variable) => (typeof v.query === 'string' ? v.query : v.query.query);

/** Every query of the monitoring files, named by where it is. */
function everyQuery(): { where: string; expr: string }[] {
  const board = dashboard();
  return [
    ...rules().map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
    ...board.panels.flatMap((panel) => (panel.targets ?? []).map((t) => ({ where: `panel "${panel.title}" ${t.refId}`, expr: t.expr ?? '' }))),
    ...board.templating.list.map((v) => ({ where: `variable ${v.name}`, expr: variableQuery(v) })),
  ];
}

/** Names Prometheus itself gives every target: not the daemon's to export. */
const PROMETHEUS_OWN = new Set(['up']);
/** Labels Prometheus adds to every series of a target. */
const TARGET_LABELS = new Set(['instance', 'job']);

/** `where: name` for every metric a query reads that the exposition does not export. */
function missingMetrics(queries: { where: string; expr: string }[], exposition: Exposition): string[] {
  const exported = queryableNames(exposition);
  return queries.flatMap(({ where, expr }) =>
    selectorsOf(expr)
      .map((s) => s.metric)
      .filter((name) => !exported.has(name) && !PROMETHEUS_OWN.has(name))
      .map((name) => `${where}: ${name}`),
  );
}

/** `where: name{label}` for every label a selector matches on that the metric's samples do not carry. */
function missingLabels(queries: { where: string; expr: string }[], exposition: Exposition): string[] {
  return queries.flatMap(({ where, expr }) =>
    selectorsOf(expr).flatMap(({ metric, labels }) => {
      const seen = exposition.labels.get(metric);
      if (!seen || PROMETHEUS_OWN.has(metric)) return [];
      return labels.filter((label) => !TARGET_LABELS.has(label) && !seen.has(label)).map((label) => `${where}: ${metric}{${label}}`);
    }),
  );
}

let promtool = '';
beforeAll(async () => {
  const { stdout } = await run('sh', [path.join(REPO, 'test/helpers/ensure-promtool.sh')]);
  promtool = stdout.trim();
}, 300_000);

describe('alerts.yml', () => {
  it('passes promtool check rules', async () => {
    const { stdout } = await run(promtool, ['check', 'rules', ALERTS]);
    expect(stdout).toContain(`SUCCESS: ${rules().length} rules found`);
  });

  it('passes its unit tests (alerts.test.yml)', async () => {
    const { stdout } = await run(promtool, ['test', 'rules', path.join(MONITORING, 'alerts.test.yml')]);
    expect(stdout).toContain('SUCCESS');
  });

  it('fails its unit tests when the paused-flow or the dead-letter rule stops firing', async () => {
    for (const [alert, from, to] of [
      ['ConnectorFlowPaused', 'connector_flow_gate{mode="paused"} == 1', 'connector_flow_gate{mode="paused"} == 2'],
      ['ConnectorDeadLetters', 'connector_submissions_total{outcome="dead"}[15m]) > 0', 'connector_submissions_total{outcome="dead"}[15m]) > 1'],
    ] as const) {
      await withTempDir(async (dir) => {
        const text = fs.readFileSync(ALERTS, 'utf8');
        expect(text).toContain(from);
        fs.writeFileSync(path.join(dir, 'alerts.yml'), text.replace(from, to));
        fs.copyFileSync(path.join(MONITORING, 'alerts.test.yml'), path.join(dir, 'alerts.test.yml'));
        const failed = await run(promtool, ['test', 'rules', path.join(dir, 'alerts.test.yml')]).then(
          () => null,
          (error: { stdout: string; stderr: string }) => error.stdout + error.stderr,
        );
        expect(failed, `the unit tests still pass with ${alert} broken`).not.toBeNull();
        expect(failed).toContain(`alertname: ${alert}`);
      });
    }
  });

  it('gives every alert a severity, a summary, a description and a runbook naming the error code to look up', () => {
    const codeOf: Record<string, string> = {
      ConnectorFlowPaused: 'PLATFORM_UNAUTHORIZED',
      ConnectorDeadLetters: 'SUBMISSION_DEAD',
      ConnectorWebhookSignatureFailures: 'WEBHOOK_SIGNATURE_INVALID',
      ConnectorExportLagHigh: 'EXPORT_WRITE_FAILED',
      ConnectorNotReady: 'STORE_FAILED',
      ConnectorOldestPendingHigh: 'PLATFORM_UNAVAILABLE',
      ConnectorDown: 'CONFIG_INVALID',
    };
    const all = rules();
    expect(all.map((r) => r.alert)).toEqual(expect.arrayContaining(Object.keys(codeOf)));
    for (const rule of all) {
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      for (const key of ['summary', 'description', 'runbook']) expect(rule.annotations?.[key]?.length ?? 0, `${rule.alert} ${key}`).toBeGreaterThan(20);
      if (codeOf[rule.alert]) expect(rule.annotations!.runbook, rule.alert).toContain(codeOf[rule.alert]);
    }
    // The codes an operator is sent to look up must be docs/troubleshooting.md's (errors.ts): a misspelt one leads nowhere.
    const attemptReasons = new Set(['PLATFORM_ATTEMPT_TIMEOUT', 'PLATFORM_RESPONSE_TOO_LARGE']);
    const named = all.flatMap((rule) => Object.values(rule.annotations ?? {}).flatMap((text) => text.match(/\b[A-Z]+(?:_[A-Z]+)+\b/g) ?? []));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((code) => !(code in ERROR_CODES) && !attemptReasons.has(code))).toEqual([]);
  });
});

describe('the names the monitoring files read', () => {
  it('are found by the selector reader, which reports a name or label the daemon lacks', () => {
    expect(selectorsOf('60 * sum by (flow) (rate(connector_files_total{instance=~"$instance", flow=~"a|b"}[$__rate_interval]))')).toEqual([
      { metric: 'connector_files_total', labels: ['instance', 'flow'] },
    ]);
    expect(selectorsOf('increase(a_total{outcome="dead"}[15m]) > 0 or (b unless b offset 15m) or vector(0)').map((s) => s.metric)).toEqual([
      'a_total',
      'b',
      'b',
    ]);
    expect(selectorsOf('max by (flow, mode) (x{mode!="closed"}) == bool 1 and on (flow) group_left (mode) y_bucket')).toEqual([
      { metric: 'x', labels: ['mode'] },
      { metric: 'y_bucket', labels: [] },
    ]);
    expect(selectorsOf('label_values(connector_flow_gate{instance=~"$instance"}, flow)')).toEqual([{ metric: 'connector_flow_gate', labels: ['instance'] }]);

    const exposition = parseExposition('# TYPE real_total counter\nreal_total{flow="a"} 1\n# TYPE h histogram\nh_bucket{le="1"} 0\n');
    const queries = [{ where: 'q', expr: 'rate(real_total{flow="a", state="x"}[5m]) + h_bucket + h_count + made_up' }];
    expect(missingMetrics(queries, exposition)).toEqual(['q: made_up']);
    expect(missingLabels(queries, exposition)).toEqual(['q: real_total{state}']);
  });

  it('are all exported by a running daemon, with the labels the queries match on', async () => {
    const queries = everyQuery();
    const used = new Set(queries.flatMap(({ expr }) => selectorsOf(expr).map((s) => s.metric)));
    // What the brief of each panel and alert asks for is there.
    for (const name of [
      'connector_files_total',
      'connector_requests_recorded_total',
      'connector_queue_depth',
      'connector_oldest_pending_age_seconds',
      'connector_submissions_total',
      'connector_webhook_events_total',
      'connector_export_lag_seconds',
      'connector_process_cpu_seconds_total',
      'connector_process_resident_memory_bytes',
      'connector_flow_gate',
      'connector_ready',
      'up',
    ]) {
      expect(used, name).toContain(name);
    }

    await withTempDir(async (dir) => {
      const config = writeConfig(
        dir,
        `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:1", token: monitoring-token-123, sourceSystem: erp-test }
flows:${REQUESTS_FLOW}
${FAST_DELIVERY}
webhook: { port: 0, secrets: [monitoring-secret-456] }
export: { folder: {dir}/import, mapping: {repo}/config/mappings/status-export.yaml }
metrics: { port: 0 }
sandbox: { enabled: true, port: 0, demo: false }
`,
      );
      await withDaemon(config, async (daemon) => {
        // One whole cycle, so that the labelled series exist: a file taken, its requests accepted,
        // a status event applied and written, and one webhook refused for its signature.
        const sandbox = daemon.sandbox!;
        fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
        fs.copyFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'), path.join(dir, 'inbox/requests.csv'));
        await waitUntil(() => sandbox.requests().length === 3, 'three requests accepted by the platform', 20_000);
        sandbox.setOrderStatus(sandbox.requests()[0]!.order!.id, 'shipped');
        await waitUntil(() => listFiles(path.join(dir, 'import')).some((n) => n.startsWith('order-status-')), 'a status file', 20_000);
        const refused = await fetch(daemon.urls.webhook!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-signature': 'sha256=00' },
          body: '{}',
        });
        expect(refused.status).toBe(401);

        const scrape = async () => (await fetch(`${daemon.urls.admin}/metrics`)).text();
        const text = await waitUntil(async () => {
          const body = await scrape();
          return /^connector_export_files_total\{channel="status"\} 1$/m.test(body) ? body : null;
        }, 'the status file counted');

        expect(text).toMatch(/^connector_requests_recorded_total\{flow="requests"\} 3$/m);
        expect(text).toMatch(/^connector_flow_gate\{flow="requests",mode="closed"\} 1$/m);
        expect(text).toMatch(/^connector_flow_gate\{flow="requests",mode="paused"\} 0$/m);
        expect(text).toMatch(/^connector_ready 1$/m);
        expect(text).toMatch(/^connector_submissions_total\{flow="requests",outcome="dead"\} 0$/m);
        expect(text).toMatch(/^connector_webhook_events_total\{outcome="WEBHOOK_SIGNATURE_INVALID"\} 1$/m);

        const exposition = parseExposition(text);
        expect(missingMetrics(queries, exposition)).toEqual([]);
        expect(missingLabels(queries, exposition)).toEqual([]);
      });
    });
  }, 60_000);
});

describe('grafana-dashboard.json', () => {
  it('imports into any Grafana: a data source input, the flow and instance variables', () => {
    const board = dashboard();
    expect(board.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(board.__inputs).toContainEqual(expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }));
    const variables = new Map(board.templating.list.map((v) => [v.name, v]));
    for (const name of ['flow', 'instance']) {
      const variable = variables.get(name);
      expect(variable, name).toBeDefined();
      expect(variable!.type).toBe('query');
      expect(variable!.datasource?.uid).toBe('${DS_PROMETHEUS}');
      expect(variableQuery(variable!)).toMatch(new RegExp(`^label_values\\(.+, ${name}\\)$`));
    }
  });

  it('gives every panel the data source, a title and a query, on a grid where none overlaps another', () => {
    const { panels } = dashboard();
    expect(panels.length).toBeGreaterThan(10);
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    for (const panel of panels) {
      const name = `panel ${panel.id} "${panel.title}"`;
      expect(panel.title?.trim().length ?? 0, name).toBeGreaterThan(0);
      expect(panel.datasource, name).toEqual({ type: 'prometheus', uid: '${DS_PROMETHEUS}' });
      expect(panel.targets?.length ?? 0, name).toBeGreaterThan(0);
      const refIds = panel.targets!.map((t) => t.refId);
      expect(new Set(refIds).size, name).toBe(refIds.length);
      for (const t of panel.targets!) {
        expect(t.expr?.trim().length ?? 0, `${name} ${t.refId}`).toBeGreaterThan(0);
        expect(t.datasource, `${name} ${t.refId}`).toEqual(panel.datasource);
      }
      const { x, w } = panel.gridPos;
      expect(x >= 0 && w > 0 && x + w <= 24, `${name} fits the 24 columns`).toBe(true);
    }
    const overlaps = panels.flatMap((a, i) =>
      panels
        .slice(i + 1)
        .filter(
          (b) =>
            a.gridPos.x < b.gridPos.x + b.gridPos.w &&
            b.gridPos.x < a.gridPos.x + a.gridPos.w &&
            a.gridPos.y < b.gridPos.y + b.gridPos.h &&
            b.gridPos.y < a.gridPos.y + a.gridPos.h,
        )
        .map((b) => `${a.title} / ${b.title}`),
    );
    expect(overlaps).toEqual([]);
  });

  it("has only queries promtool's PromQL parser accepts, with Grafana's variables filled in", async () => {
    await withTempDir(async (dir) => {
      const recording = dashboard().panels.flatMap((panel) =>
        panel.targets!.map((t) => ({
          record: `dashboard:panel_${panel.id}_${t.refId}`,
          expr: t.expr!.replaceAll('$__rate_interval', '5m').replace(/\$\w+/g, '.*'),
        })),
      );
      const file = path.join(dir, 'dashboard-queries.yml');
      fs.writeFileSync(file, YAML.stringify({ groups: [{ name: 'dashboard', rules: recording }] }));
      const { stdout } = await run(promtool, ['check', 'rules', file]);
      expect(stdout).toContain(`SUCCESS: ${recording.length} rules found`);
    });
  });
});
