/** What `npm start` prints once the demo is up: where to drop a sample and where to look. */
import path from 'node:path';
import type { Config } from '../config/schema.js';

export function demoHints(config: Config, urls: { webhook?: string; admin?: string; sandbox?: string; console?: string }): string {
  const rel = (p: string) => path.relative(process.cwd(), p) || '.';
  const requests = config.flows.find((f) => f.kind === 'requests');
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
          `  cp samples/broken/bad-inn.csv ${rel(requests.inbox)}/ && ls ${rel(requests.inbox)}/rejected   # a rejected file and its report`,
        ]
      : []),
    ...(confirmations ? [`  supplier confirmations go into ${rel(confirmations.inbox)}/ (see samples/README.md)`] : []),
    '',
    `  sandbox platform: ${urls.sandbox ?? '-'}   (GET /_sandbox/requests, /_sandbox/webhooks)`,
    `  webhook listener: ${urls.webhook ?? '-'}`,
    `  metrics:          ${urls.admin ? `${urls.admin}/metrics` : '-'}`,
    `  status:           node dist/src/cli.js status --config config/demo.yaml`,
    '',
    'Ctrl-C stops it cleanly (logs are JSON lines on stdout).',
    '',
  ];
  return lines.join('\n');
}
