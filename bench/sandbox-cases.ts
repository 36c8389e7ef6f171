/**
 * The platform side of the delivery and latency benches: the real sandbox, alone in its child
 * process so that it does not share an event loop with the daemon side it measures.
 */
import { startSandbox } from '../src/sandbox/index.js';
import type { CaseChannel } from './case-channel.js';

export interface SandboxInfo {
  url: string;
  token: string;
}

export interface SandboxReport {
  /** Requests the sandbox accepted (each one a distinct externalId). */
  accepted: number;
  calls: number;
  /** externalId → epoch ms the POST arrived (first call per externalId), when `arrivals` was asked for. */
  arrivals?: Record<string, number>;
}

async function sandboxServer(args: { arrivals?: boolean }, channel: CaseChannel): Promise<SandboxReport> {
  const sandbox = await startSandbox({ port: 0 });
  try {
    channel.ready({ url: sandbox.url, token: sandbox.token } satisfies SandboxInfo);
    await channel.stopRequested();
    const calls = sandbox.calls();
    const report: SandboxReport = { accepted: sandbox.requests().length, calls: calls.length };
    if (args.arrivals) {
      const arrivals: Record<string, number> = {};
      for (const call of calls) {
        const externalId = (call.body as { externalId?: unknown } | undefined)?.externalId;
        if (typeof externalId === 'string' && !(externalId in arrivals)) arrivals[externalId] = Date.parse(call.receivedAt);
      }
      report.arrivals = arrivals;
    }
    return report;
  } finally {
    await sandbox.stop();
  }
}

export const sandboxCases = { 'sandbox-server': sandboxServer };
