/**
 * The `preview` and `check` commands' bodies, kept out of `cli.ts`: they load the config and the
 * mappings, and never touch the store or the folders.
 */
import path from 'node:path';
import { configError, loadConfig, mappingNamedAt, namedAtText, readYamlSource, type Env } from '../config/load-config.js';
import { exportFormatSchema } from '../config/export-format-schema.js';
import { flowMappingProblem, flowMappingWarnings } from '../config/flow-mapping-checks.js';
import { flowIntakeSchema } from '../config/flow-schema.js';
import { issueProblems } from '../config/key-problems.js';
import { loadMappingOf, loadMappingSpec } from '../config/load-mapping.js';
import type { MappingSpec } from '../config/mapping-schema.js';
import type { Config, FlowConfig } from '../config/schema.js';
import { ConnectorError, isConnectorError } from '../errors.js';
import { formatPreview, previewFile, type PreviewJudgeRules } from './preview-file.js';
import type { MapOptions } from './map-file.js';

export interface PreviewCommandOptions {
  /** The daemon config: the flow's mapping and rules (`rejectPastDates`, the archive password). */
  config?: string | undefined;
  /** With `config`: which flow (needed when it has several). */
  flow?: string | undefined;
  /** A mapping file: alone, with a flow's default rules; with `config`, in place of the flow's mapping. */
  mapping?: string | undefined;
  json?: boolean | undefined;
}

/** What is wrong with the options of `preview` (an argument error, exit 2), or undefined. */
export function previewUsageProblem(options: PreviewCommandOptions): string | undefined {
  if (options.config === undefined && options.mapping === undefined) {
    return "preview needs --config FILE (a flow's mapping and rules) or --mapping FILE (a mapping alone, say one `mapping suggest` wrote)";
  }
  if (options.flow !== undefined && options.config === undefined) return '--flow chooses a flow of --config FILE; without --config there is none to choose';
  return undefined;
}

/** Map `input` as the flow (or the mapping alone) would; returns the text to print and the exit code (0 clean, 1 problems). */
export async function runPreviewCommand(
  input: string,
  options: PreviewCommandOptions,
  env: Env,
  now = new Date(),
): Promise<{ output: string; exitCode: number }> {
  const usage = previewUsageProblem(options);
  if (usage !== undefined) throw new TypeError(usage);
  const { spec, rules } = previewMapping(options, env);
  const result = await previewFile(input, spec, { now, ...rules });
  // `withdrawals` only where a mapping reads them: the JSON of every other file keeps its two keys.
  const { withdrawals, ...rest } = result;
  const output = options.json ? `${JSON.stringify(withdrawals.length > 0 ? result : rest)}\n` : formatPreview(result);
  return { output, exitCode: result.problems.length > 0 ? 1 : 0 };
}

type PreviewRules = Pick<MapOptions, 'rejectPastDates' | 'archivePassword'> & PreviewJudgeRules;

/**
 * The mapping and the rules a preview maps with: a flow's (its mapping replaced by `--mapping`,
 * whose kind must then be the flow's), or `--mapping` alone with the rules a flow has by default
 * (dates in the past rejected, no archive password, a file judged by a flow's default rules).
 */
function previewMapping(options: PreviewCommandOptions, env: Env): { spec: MappingSpec; rules: PreviewRules } {
  if (options.config === undefined) {
    const spec = loadMappingSpec(options.mapping!);
    return { spec, rules: { rejectPastDates: flowIntakeSchema.parse({}).rejectPastDates } };
  }
  const config = loadConfig(options.config, env);
  let flow = chooseFlow(config, options.flow);
  if (options.mapping !== undefined) flow = { ...flow, mapping: path.resolve(options.mapping) };
  const spec = loadMappingOf(flow);
  if (options.mapping !== undefined) {
    const problem = flowMappingProblem(flow, spec);
    if (problem !== undefined) throw new ConnectorError('MAPPING_INVALID', `flow ${flow.name}: ${problem}`);
  }
  // The flow's own rules: the file is judged as its daemon would judge it (`judge-file.ts`).
  const rules: PreviewRules = {
    rejectPastDates: flow.intake.rejectPastDates,
    archivePassword: flow.enterpriseData?.password,
    flow: flow.name,
    rejectWholeFile: flow.intake.rejectWholeFile,
    maxFileBytes: flow.intake.maxFileBytes,
    acceptEmpty: flow.enterpriseData !== undefined,
  };
  return { spec, rules };
}

function chooseFlow(config: Config, name: string | undefined): FlowConfig {
  if (name !== undefined) {
    const flow = config.flows.find((f) => f.name === name);
    if (!flow) throw new ConnectorError('CONFIG_INVALID', `no flow named "${name}" (flows: ${config.flows.map((f) => f.name).join(', ')})`);
    return flow;
  }
  if (config.flows.length === 1) return config.flows[0]!;
  throw new ConnectorError(
    'CONFIG_INVALID',
    `the config has ${config.flows.length} flows; choose one with --flow (${config.flows.map((f) => f.name).join(', ')})`,
  );
}

/**
 * Every error of the config and the files it points to: each flow's mapping (and that its kind
 * matches the flow's), and the export mapping. An invalid config itself throws `CONFIG_INVALID`.
 */
export function checkConfigFiles(configFile: string, env: Env): string[] {
  const config = loadConfig(configFile, env);
  const errors: string[] = [];
  config.flows.forEach((flow, index) => {
    try {
      const spec = loadMappingOf(flow);
      const problem = flowMappingProblem(flow, spec);
      if (problem !== undefined) errors.push(`flows[${index}] (${flow.name}): ${problem}`);
    } catch (error) {
      if (!isConnectorError(error)) throw error;
      errors.push(`flows[${index}] (${flow.name}): ${error.code}: ${error.message}`);
    }
  });
  if (config.export) {
    const file = config.export.mapping;
    try {
      const source = readYamlSource(file, 'export mapping');
      const parsed = exportFormatSchema.safeParse(source.data);
      if (!parsed.success) {
        const invalid = configError(file, issueProblems(parsed.error.issues, { schema: exportFormatSchema, data: source.data, source }), 'MAPPING_INVALID');
        errors.push(`export.mapping: ${invalid.code}: ${invalid.message}`);
      }
    } catch (error) {
      if (!isConnectorError(error)) throw error;
      const named = isConnectorError(error, 'CONFIG_NOT_FOUND') ? namedAtText(mappingNamedAt(config.export)) : '';
      errors.push(`export.mapping: ${error.code}: ${error.message}${named}`);
    }
  }
  return errors;
}

/** What `check` warns about in the flows' mappings (placeholders left in); [] when a mapping cannot be read (its error says why). */
export function checkMappingWarnings(configFile: string, env: Env): string[] {
  return loadConfig(configFile, env).flows.flatMap((flow) => {
    try {
      return flowMappingWarnings(flow, loadMappingOf(flow));
    } catch {
      return [];
    }
  });
}

/** `check`: prints OK, or throws `MAPPING_INVALID` listing every error (the CLI exits 2). */
export function runCheckCommand(configFile: string, env: Env): string {
  const errors = checkConfigFiles(configFile, env);
  if (errors.length > 0)
    throw new ConnectorError('MAPPING_INVALID', `${configFile}: ${errors.length} error(s):\n${errors.join('\n')}`, { details: { errors } });
  return 'OK\n';
}
