/**
 * Bench 5, the operator console: `/`, a search and a request page, answered as HTML (what the
 * browser gets) by the real admin listener over a store with 100,000 submissions and 100,000
 * events. One operator: sequential requests from this process; the server runs in its own child.
 * Target: each page's p95 under 100 ms.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { withServerCase } from './child.js';
import type { ConsoleFill, ConsoleServerInfo } from './console-cases.js';
import { figure, type BenchResult } from './results.js';
import { median, percentile } from './stats.js';

export interface ConsoleBenchOptions extends ConsoleFill {
  /** Timed requests per page, after `warmup` untimed ones. */
  requests: number;
  warmup: number;
  log: (line: string) => void;
}

async function timePage(pool: Pool, path: string, o: ConsoleBenchOptions): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < o.warmup + o.requests; i += 1) {
    const t0 = performance.now();
    const res = await pool.request({ path, method: 'GET', headers: { accept: 'text/html' } });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${body.slice(0, 200)}`);
    if (i >= o.warmup) times.push(performance.now() - t0);
  }
  return times;
}

export async function runConsoleBench(options: ConsoleBenchOptions): Promise<BenchResult[]> {
  const fill: ConsoleFill = { submissions: options.submissions, events: options.events, requestsPerFile: options.requestsPerFile };
  const { value } = await withServerCase<
    ConsoleServerInfo,
    { submissions: number },
    { pages: { name: string; path: string; times: number[] }[]; info: ConsoleServerInfo }
  >('console-server', fill, async (info) => {
    options.log(`  console: store filled in ${info.fillSeconds.toFixed(1)} s (${options.submissions} submissions, ${options.events} events)`);
    const pool = new Pool(info.url, { connections: 1 });
    try {
      const pages = [
        { name: 'overview', path: '/' },
        { name: 'search', path: `/flows/requests/requests?q=${encodeURIComponent('ЗК-0512')}` },
        { name: 'request', path: `/flows/requests/requests/${encodeURIComponent(info.deadExternalId)}` },
      ];
      const measured = [];
      for (const page of pages) measured.push({ ...page, times: await timePage(pool, page.path, options) });
      return { pages: measured, info };
    } finally {
      await pool.close();
    }
  });
  const load = `${options.requests} sequential GETs (HTML) after ${options.warmup} of warm-up; ${options.submissions} submissions, ${options.events} events in the store`;
  return value.pages.map((page) => {
    const p95 = percentile(page.times, 95);
    options.log(`  console ${page.name}: p50 ${median(page.times).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${Math.max(...page.times).toFixed(1)} ms`);
    return figure({
      name: `console.${page.name}_p95_ms`,
      value: p95,
      unit: 'ms',
      conditions: [{ of: 'value', op: '<', threshold: 100 }],
      notes: `${page.path}; p50 ${median(page.times).toFixed(1)} ms; ${load}`,
    });
  });
}
