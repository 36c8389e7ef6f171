/**
 * What `npm start` (or `run` with a sandbox) prints once the daemon is up: where to drop a sample
 * and where to look, for the config it was started with. A flow is shown the sample its own
 * mapping reads, where the program ships one and it is there; an exchange with 1C the sample
 * messages only under the codes they were written for; anything else, what to drop, in words. The
 * commands name the config file the daemon read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FlowConfig } from '../config/flow-schema.js';
import type { Config } from '../config/schema.js';
import { programRoot } from '../config/schema-files.js';

/** The shipped sample each shipped mapping reads, and what it is. */
const SAMPLE_OF: Readonly<Record<string, { sample: string; note: string }>> = {
  '1c-requests.yaml': { sample: 'samples/requests-1c-windows1251.csv', note: '' },
  '1c-report-xlsx.yaml': { sample: 'samples/requests-1c-report.xlsx', note: 'a report saved from 1C as xlsx' },
  'commerceml-orders.yaml': { sample: 'samples/commerceml-orders.xml', note: "1C's CommerceML document export" },
};
/** The codes the shipped exchange messages were written for (`samples/enterprisedata/`). */
const SAMPLE_CODES = { peer: 'УТ', node: 'ПК' };

export interface DemoHintOptions {
  /** The config file the daemon was started with, as given. */
  configFile: string;
  /** Where the sample paths are (default: the program's root); paths are shown relative to the working folder. */
  root?: string;
}

export function demoHints(
  config: Config,
  urls: { webhook?: string; admin?: string; sandbox?: string; console?: string },
  options: DemoHintOptions = { configFile: 'config/demo.yaml' },
): string {
  const root = options.root ?? programRoot();
  const rel = (p: string) => path.relative(process.cwd(), p) || '.';
  /** A shipped file's path as the operator types it, or undefined when it is not there. */
  const shipped = (file: string) => {
    const full = path.join(root, file);
    return fs.existsSync(full) ? rel(full) : undefined;
  };
  const requestFlows = config.flows.filter((f) => f.kind === 'requests');
  // The first flow of 1C's CSV export is the one walked through, with the broken samples.
  const main = requestFlows.find((f) => !f.enterpriseData && path.basename(f.mapping) === '1c-requests.yaml');
  const lines = [
    '',
    'procurement-connector demo is running (built-in sandbox platform, demo mode).',
    '',
    ...(urls.console ? [`Operator console: ${urls.console}   (actions ask for console.password, see the config)`, ''] : []),
    ...(requestFlows.length > 0
      ? ['Try it:', ...(main ? mainFlowHints(main, rel, shipped) : []), ...requestFlows.filter((f) => f !== main).flatMap((f) => flowHints(f, rel, shipped))]
      : []),
    ...config.flows.filter((f) => f.kind === 'confirmations').map((f) => `  supplier confirmations go into ${rel(f.inbox)}/ (see samples/README.md)`),
    '',
    `  sandbox platform: ${urls.sandbox ?? '-'}   (GET /_sandbox/requests, /_sandbox/webhooks)`,
    `  webhook listener: ${urls.webhook ?? '-'}`,
    `  metrics:          ${urls.admin ? `${urls.admin}/metrics` : '-'}`,
    `  status:           node dist/src/cli.js status --config ${options.configFile}`,
    '',
    'Ctrl-C stops it cleanly (the log is on stdout: readable on a terminal, JSON lines in a pipe).',
    '',
  ];
  return lines.join('\n');
}

type Shipped = (file: string) => string | undefined;

/** The walk-through of 1C's CSV flow: a sample, where its results go, a bad row, a bad file. */
function mainFlowHints(flow: FlowConfig, rel: (p: string) => string, shipped: Shipped): string[] {
  const inbox = rel(flow.inbox);
  const sample = shipped(SAMPLE_OF['1c-requests.yaml']!.sample);
  const badInn = shipped('samples/broken/bad-inn.csv');
  const missingColumn = shipped('samples/broken/missing-column.csv');
  return [
    sample ? `  cp ${sample} ${inbox}/` : `  # drop a CSV exported from 1C into ${inbox}/`,
    `  ls ${rel(flow.results)}            # acknowledgements (ack-*.csv), then order status files`,
    `  ls ${inbox}/archive/*     # the file, once recorded`,
    ...(badInn ? [`  cp ${badInn} ${inbox}/          # one bad INN: the rest goes through, a report beside it in archive/`] : []),
    ...(missingColumn ? [`  cp ${missingColumn} ${inbox}/   # nothing to take: rejected/, with its report`] : []),
  ];
}

/** Any other flow: the sample its mapping reads, 1C's messages for its codes, or what to drop. */
function flowHints(flow: FlowConfig, rel: (p: string) => string, shipped: Shipped): string[] {
  const inbox = rel(flow.inbox);
  const codes = flow.enterpriseData;
  if (codes) {
    const name = `Message_${codes.peer}_${codes.node}.xml`;
    const settings = shipped(`samples/enterprisedata/settings/${name}`);
    const data = shipped(`samples/enterprisedata/data/${name}`);
    if (codes.peer === SAMPLE_CODES.peer && codes.node === SAMPLE_CODES.node && settings && data) {
      return [
        `  cp ${settings} ${inbox}/   # 1C's synchronization: its settings...`,
        `  cp ${data}     ${inbox}/   # ...then message 1 with two purchase orders`,
      ];
    }
    return [`  # ${inbox}/ is 1C's exchange folder: 1C writes ${name} there (docs/enterprisedata.md)`];
  }
  const known = SAMPLE_OF[path.basename(flow.mapping)];
  const sample = known && shipped(known.sample);
  if (known && sample) return [`  cp ${sample.padEnd(34)} ${inbox}/${known.note ? `   # ${known.note}` : ''}`];
  return [`  # drop a file that ${rel(flow.mapping)} reads into ${inbox}/ (try it first: procurement-connector preview)`];
}
