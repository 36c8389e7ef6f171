/**
 * Entry point of a bench child: `node dist/bench/worker.js <case> <json args>` (forked by
 * `child.ts`). Runs one case, sends its result with the process's peak RSS, and exits.
 */
import type { CaseChannel, CaseFn, FromChild, ToChild } from './case-channel.js';

/**
 * Each case's module, by the prefix of its name. A child loads only its own case's module, so its
 * peak RSS holds its case's code and not the others' (the console's pages in an intake case, say).
 */
const MODULES: Record<string, () => Promise<Record<string, CaseFn>>> = {
  intake: async () => (await import('./intake-cases.js')).intakeCases,
  delivery: async () => (await import('./delivery-cases.js')).deliveryCases,
  e2e: async () => (await import('./e2e-cases.js')).endToEndCases,
  webhook: async () => (await import('./webhook-cases.js')).webhookCases,
  export: async () => (await import('./export-cases.js')).exportCases,
  latency: async () => (await import('./latency-cases.js')).latencyCases,
  sandbox: async () => (await import('./sandbox-cases.js')).sandboxCases,
  console: async () => (await import('./console-cases.js')).consoleCases,
  xlsx: async () => (await import('./xlsx-cases.js')).xlsxCases,
  files: async () => (await import('./files-cases.js')).filesCases,
};

function send(message: FromChild): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function main(): Promise<void> {
  const [name = '', rawArgs = '{}'] = process.argv.slice(2);
  const cases = await MODULES[name.split('-')[0] ?? '']?.();
  const run = cases?.[name];
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
    done: () => void send({ type: 'done' }),
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
