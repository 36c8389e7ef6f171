/**
 * Entry point of a bench child: `node dist/bench/worker.js <case> <json args>` (forked by
 * `child.ts`). Runs one case, sends its result with the process's peak RSS, and exits.
 */
import type { CaseChannel, CaseFn, FromChild, ToChild } from './case-channel.js';
import { consoleCases } from './console-cases.js';
import { deliveryCases } from './delivery-cases.js';
import { exportCases } from './export-cases.js';
import { intakeCases } from './intake-cases.js';
import { latencyCases } from './latency-cases.js';
import { sandboxCases } from './sandbox-cases.js';
import { webhookCases } from './webhook-cases.js';

const CASES: Record<string, CaseFn> = { ...intakeCases, ...deliveryCases, ...webhookCases, ...exportCases, ...latencyCases, ...sandboxCases, ...consoleCases };

function send(message: FromChild): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function main(): Promise<void> {
  const [name = '', rawArgs = '{}'] = process.argv.slice(2);
  const run = CASES[name];
  if (!run) throw new Error(`unknown bench case "${name}"`);
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  process.on('message', (message: ToChild) => {
    if (message.type === 'stop') stop();
  });
  const channel: CaseChannel = {
    ready: (info) => void send({ type: 'ready', info }),
    stopRequested: () => stopped,
  };
  const data = await (run as (args: unknown, channel: CaseChannel) => Promise<unknown>)(JSON.parse(rawArgs), channel);
  await send({ type: 'result', data, maxRssKb: process.resourceUsage().maxRSS });
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    await send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  },
);
