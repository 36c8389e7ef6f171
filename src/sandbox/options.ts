/** Options of `startSandbox`, with their defaults. */
import type { Logger } from '../log.js';
import { silentLogger } from '../log.js';
import type { FaultConfig } from './faults.js';
import { ConnectorError } from '../errors.js';

export interface SandboxOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** The setting that owns the port, named when it cannot be bound: `sandbox.port` (default), the command's `--port`. */
  portKey?: string;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Buyer token (path segment of the create operation); default `sandbox-token`. */
  token?: string;
  /** Supplier token (path segment of the confirm operation); default `sandbox-supplier-token`. */
  supplierToken?: string;
  /** Where order status webhooks are POSTed; none are sent when unset. */
  webhookUrl?: string;
  /** HMAC-SHA256 key of `X-Service-Signature`; the header is omitted when unset. */
  webhookSecret?: string;
  /**
   * PEM certificate(s) trusted for an `https` webhookUrl besides the public roots: the listener's
   * own self-signed certificate in the demo and tests. Verification stays on; default none.
   */
  webhookCa?: string;
  /** Timeout of one webhook attempt, in ms (default 10 000; not scaled). */
  webhookTimeoutMs?: number;
  /** Orders progress by themselves (confirm → ship → deliver); default false. */
  demo?: boolean;
  /** Delay of each demo step, in ms (default 3 000; multiplied by timeScale). */
  demoDelaysMs?: number;
  /** How long an idempotency key's answer is remembered, in ms (default 24 h). */
  idempotencyTtlMs?: number;
  /** Delay before each webhook attempt, in ms (default Standard Webhooks: 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h). */
  webhookRetryScheduleMs?: readonly number[];
  /** Multiplies every webhook and demo delay; tests use e.g. 0.001 (default 1). */
  timeScale?: number;
  /** Largest accepted request body, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Prefix of request ids (`PRC-REQ-000001`); default `PRC`. */
  requestIdPrefix?: string;
  /** Prefix of order ids (`ORD-2026-000001`); default `ORD`. */
  orderIdPrefix?: string;
  /** Seed of the fault draws; makes them reproducible. */
  seed?: number;
  /** Initial fault settings (none by default). */
  faults?: FaultConfig;
  /** pino logger; default silent. */
  logger?: Logger;
  /** Clock; default the system clock. */
  now?: () => Date;
}

export const STANDARD_WEBHOOKS_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000] as const;

export type ResolvedSandboxOptions = Required<Omit<SandboxOptions, 'webhookUrl' | 'webhookSecret' | 'webhookCa' | 'seed' | 'faults' | 'portKey'>> &
  Pick<SandboxOptions, 'webhookUrl' | 'webhookSecret' | 'webhookCa' | 'seed' | 'faults' | 'portKey'>;

export function resolveSandboxOptions(options: SandboxOptions): ResolvedSandboxOptions {
  const resolved: ResolvedSandboxOptions = {
    port: options.port ?? 0,
    portKey: options.portKey,
    host: options.host ?? '127.0.0.1',
    token: options.token ?? 'sandbox-token',
    supplierToken: options.supplierToken ?? 'sandbox-supplier-token',
    webhookUrl: options.webhookUrl,
    webhookSecret: options.webhookSecret,
    webhookCa: options.webhookCa,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    demo: options.demo ?? false,
    demoDelaysMs: options.demoDelaysMs ?? 3_000,
    idempotencyTtlMs: options.idempotencyTtlMs ?? 24 * 60 * 60 * 1000,
    webhookRetryScheduleMs: options.webhookRetryScheduleMs ?? STANDARD_WEBHOOKS_SCHEDULE_MS,
    timeScale: options.timeScale ?? 1,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    requestIdPrefix: options.requestIdPrefix ?? 'PRC',
    orderIdPrefix: options.orderIdPrefix ?? 'ORD',
    seed: options.seed,
    faults: options.faults,
    logger: options.logger ?? silentLogger,
    now: options.now ?? (() => new Date()),
  };
  if (resolved.token === resolved.supplierToken) throw new ConnectorError('CONFIG_INVALID', 'sandbox: token and supplierToken must differ');
  if (resolved.webhookRetryScheduleMs.length === 0) throw new ConnectorError('CONFIG_INVALID', 'sandbox: webhookRetryScheduleMs needs at least one attempt');
  if (!(resolved.timeScale >= 0)) throw new ConnectorError('CONFIG_INVALID', 'sandbox: timeScale must be a number >= 0');
  return resolved;
}
