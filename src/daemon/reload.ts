/**
 * Reload (SIGHUP, and the console's mapping page after a save) is one mechanism: everything a
 * reload may change (the mappings, the acknowledgement formats, the listener's certificate) is read
 * and validated first, and only when all of it is valid is each reloadable component handed its new
 * value; otherwise nothing changes. Reading gives a result, never a throw: the problems are the
 * answer to a reload, and the start turns them into its `MAPPING_INVALID`.
 *
 * What a reload does not apply and could be taken for applied is said, not refused: an exchange's
 * `enterpriseData` changed in the config file (`exchange-changes.ts`) applies at restart.
 */
import type { ExportFormat } from '../config/export-format-schema.js';
import { flowMappingProblem } from '../config/flow-mapping-checks.js';
import { loadMappingOf } from '../config/load-mapping.js';
import type { MappingSpec } from '../config/mapping-schema.js';
import type { Config, FlowConfig } from '../config/schema.js';
import { tlsMaterialProblem, type TlsMaterial } from '../config/webhook-schema.js';
import { describeError } from '../errors.js';
import { exchangeChangesAtReload } from './exchange-changes.js';
import type { Logger } from '../log.js';
import type { Reloadable } from '../shared/lifecycle.js';
import { ackChannel } from '../store/exports.js';

/** Everything a reload may change, read and validated before any component sees it. */
export interface Reloadables {
  /** Each flow's mapping, by flow name. */
  mappings: Map<string, MappingSpec>;
  /** Acknowledgement formats by export channel (`ack:<flow>`). */
  ackFormats: Map<string, ExportFormat>;
  /** The listener's certificate and key, when it speaks TLS. */
  tls: TlsMaterial | undefined;
}

/**
 * What reading gave: every value, with what the config file changed that a reload does not apply
 * (`warnings`, logged); or every problem. One line each, naming the flow or the key.
 */
export type ReadReloadables = { ok: true; reloadables: Reloadables; warnings: string[] } | { ok: false; errors: string[] };

/** A reload's verdict; on errors nothing was changed, and the errors are logged. */
export type ReloadResult = { ok: true } | { ok: false; errors: string[] };

/** The running components a reload hands its new values to. */
export interface ReloadTargets {
  intakes: ReadonlyMap<string, Reloadable<MappingSpec>>;
  exporter: Reloadable<Map<string, ExportFormat>>;
  /** The webhook listener, when there is one. */
  listener: Reloadable<TlsMaterial> | null;
}

/** Every flow's mapping, its kind checked against the flow's; or every problem, each naming its flow. */
export function readFlowMappings(flows: readonly FlowConfig[]): { ok: true; mappings: Map<string, MappingSpec> } | { ok: false; errors: string[] } {
  const mappings = new Map<string, MappingSpec>();
  const errors: string[] = [];
  for (const flow of flows) {
    try {
      const spec = loadMappingOf(flow);
      const problem = flowMappingProblem(flow, spec);
      if (problem !== undefined) errors.push(`flow ${flow.name}: ${problem}`);
      mappings.set(flow.name, spec);
    } catch (error) {
      errors.push(`flow ${flow.name}: ${describeError(error)}`);
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, mappings };
}

/** At the start: the mappings and their acknowledgement formats; the certificate as the config holds it (the listener loads it as it starts). */
export function readReloadables(config: Config): ReadReloadables {
  const read = readFlowMappings(config.flows);
  if (!read.ok) return read;
  return { ok: true, reloadables: withAckFormats(config, read.mappings, config.webhook?.tls), warnings: [] };
}

/**
 * At a reload: the mappings again, and the config file read again (`reloadConfig`; without it the
 * certificate stays as it is and nothing else is compared): when the listener speaks TLS, its
 * certificate and key from it, and every flow's `enterpriseData` compared with the running one.
 * Every problem of the mappings and the certificate is listed; a config file that no longer loads
 * is a problem only for the certificate, and otherwise a warning.
 */
export function rereadReloadables(config: Config, reloadConfig: (() => Config) | undefined): ReadReloadables {
  const read = readFlowMappings(config.flows);
  const errors = read.ok ? [] : [...read.errors];
  const warnings: string[] = [];
  let reread: { config: Config } | { error: string } | undefined;
  if (reloadConfig) {
    try {
      reread = { config: reloadConfig() };
    } catch (error) {
      reread = { error: describeError(error) };
    }
  }
  let tls = config.webhook?.tls;
  if (tls && reread) {
    if ('error' in reread) errors.push(reread.error);
    else {
      tls = reread.config.webhook?.tls;
      if (!tls) errors.push('webhook.tls was removed: a restart is needed to switch the listener to plain HTTP');
      else {
        const problem = tlsMaterialProblem(tls);
        if (problem) errors.push(`webhook.tls: ${problem}`);
      }
    }
  }
  if (reread && 'config' in reread) warnings.push(...exchangeChangesAtReload(config.flows, reread.config.flows));
  else if (reread && config.flows.some((flow) => flow.enterpriseData)) {
    warnings.push(`the config file could not be read again, so changes to enterpriseData were not looked for: ${reread.error}`);
  }
  if (!read.ok || errors.length > 0) return { ok: false, errors };
  return { ok: true, reloadables: withAckFormats(config, read.mappings, tls), warnings };
}

/** SIGHUP and the console's mapping page: read and check everything first, then hand it out; all or nothing. */
export function reloadAll(config: Config, reloadConfig: (() => Config) | undefined, targets: ReloadTargets, log: Logger): ReloadResult {
  const read = rereadReloadables(config, reloadConfig);
  if (!read.ok) {
    log.error({ code: 'CONFIG_INVALID', errors: read.errors }, 'nothing reloaded: the new mappings or certificate are invalid; the old ones stay in use');
    return { ok: false, errors: read.errors };
  }
  for (const warning of read.warnings) log.warn(warning);
  const next = read.reloadables;
  for (const [flow, intake] of targets.intakes) intake.reload(next.mappings.get(flow)!);
  targets.exporter.reload(next.ackFormats);
  if (targets.listener && next.tls) targets.listener.reload(next.tls);
  log.info({ tls: next.tls !== undefined }, 'mappings reloaded');
  return { ok: true };
}

function withAckFormats(config: Config, mappings: Map<string, MappingSpec>, tls: TlsMaterial | undefined): Reloadables {
  const ackFormats = new Map(config.flows.map((flow) => [ackChannel(flow.name), mappings.get(flow.name)!.acknowledgements]));
  return { mappings, ackFormats, tls };
}
