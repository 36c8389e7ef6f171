/** What `npm start` prints once the demo is up: where to drop a sample and where to look. */
import path from 'node:path';
import type { Config } from '../config/schema.js';

/** The samples the demo's mappings read, by mapping file name. */
const SAMPLE_OF: Readonly<Record<string, string>> = {
  '1c-report-xlsx.yaml': 'samples/requests-1c-report.xlsx',
  'commerceml-orders.yaml': 'samples/commerceml-orders.xml',
};
const NOTE_OF: Readonly<Record<string, string>> = {
  '1c-report-xlsx.yaml': 'a report saved from 1C as xlsx',
  'commerceml-orders.yaml': "1C's CommerceML document export",
};

export function demoHints(config: Config, urls: { webhook?: string; admin?: string; sandbox?: string; console?: string }): string {
  const rel = (p: string) => path.relative(process.cwd(), p) || '.';
  const requests = config.flows.find((f) => f.kind === 'requests');
  // The demo's other request flows, each with the sample its mapping reads.
  const more = config.flows
    .filter((f) => f.kind === 'requests' && f !== requests && SAMPLE_OF[path.basename(f.mapping)] !== undefined)
    .map((f) => `  cp ${SAMPLE_OF[path.basename(f.mapping)]!.padEnd(34)} ${rel(f.inbox)}/   # ${NOTE_OF[path.basename(f.mapping)]}`);
  // A flow exchanging with 1C: its two sample messages play 1C's side, in turn, under the demo's codes.
  const exchanges = config.flows.flatMap((f) => {
    const codes = f.enterpriseData;
    if (!codes) return [];
    const name = `Message_${codes.peer}_${codes.node}.xml`;
    return [
      `  cp samples/enterprisedata/settings/${name} ${rel(f.inbox)}/   # 1C's synchronization: its settings...`,
      `  cp samples/enterprisedata/data/${name}     ${rel(f.inbox)}/   # ...then message 1 with two purchase orders`,
    ];
  });
  const confirmations = config.flows.find((f) => f.kind === 'confirmations');
  const lines = [
    '',
    'procurement-connector demo is running (built-in sandbox platform, demo mode).',
    '',
    ...(urls.console ? [`Operator console: ${urls.console}   (actions ask for console.password, see the config)`, ''] : []),
    ...(requests
      ? [
          'Try it:',
          `  cp samples/requests-1c-windows1251.csv ${rel(requests.inbox)}/`,
          `  ls ${rel(requests.results)}            # acknowledgements (ack-*.csv), then order status files`,
          `  ls ${rel(requests.inbox)}/archive/*     # the file, once recorded`,
          `  cp samples/broken/bad-inn.csv ${rel(requests.inbox)}/          # one bad INN: the rest goes through, a report beside it in archive/`,
          `  cp samples/broken/missing-column.csv ${rel(requests.inbox)}/   # nothing to take: rejected/, with its report`,
          ...more,
          ...exchanges,
        ]
      : []),
    ...(confirmations ? [`  supplier confirmations go into ${rel(confirmations.inbox)}/ (see samples/README.md)`] : []),
    '',
    `  sandbox platform: ${urls.sandbox ?? '-'}   (GET /_sandbox/requests, /_sandbox/webhooks)`,
    `  webhook listener: ${urls.webhook ?? '-'}`,
    `  metrics:          ${urls.admin ? `${urls.admin}/metrics` : '-'}`,
    `  status:           node dist/src/cli.js status --config config/demo.yaml`,
    '',
    'Ctrl-C stops it cleanly (the log is on stdout: readable on a terminal, JSON lines in a pipe).',
    '',
  ];
  return lines.join('\n');
}
