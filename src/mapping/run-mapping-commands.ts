/**
 * The `preview` and `check` commands' bodies, kept out of `cli.ts`: they load the config and the
 * mappings, and never touch the store or the folders.
 */
import { loadConfig, readYamlFile, type Env } from '../config/load-config.js';
import { exportFormatSchema } from '../config/export-format-schema.js';
import { flowMappingProblem, flowMappingWarnings } from '../config/flow-mapping-checks.js';
import { loadMappingSpec, mappingProblems } from '../config/load-mapping.js';
import type { Config, FlowConfig } from '../config/schema.js';
import { ConnectorError, isConnectorError } from '../errors.js';
import { formatPreview, previewFile } from './preview-file.js';

export interface PreviewCommandOptions {
  config: string;
  flow?: string | undefined;
  json?: boolean | undefined;
}

/** Map `input` as the flow would; returns the text to print and the exit code (0 clean, 1 problems). */
export async function runPreviewCommand(
  input: string,
  options: PreviewCommandOptions,
  env: Env,
  now = new Date(),
): Promise<{ output: string; exitCode: number }> {
  const config = loadConfig(options.config, env);
  const flow = chooseFlow(config, options.flow);
  const spec = loadMappingSpec(flow.mapping);
  const result = await previewFile(input, spec, { now, rejectPastDates: flow.intake.rejectPastDates, archivePassword: flow.enterpriseData?.password });
  const output = options.json ? `${JSON.stringify(result)}\n` : formatPreview(result);
  return { output, exitCode: result.problems.length > 0 ? 1 : 0 };
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
      const spec = loadMappingSpec(flow.mapping);
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
      const parsed = exportFormatSchema.safeParse(readYamlFile(file, 'export mapping'));
      if (!parsed.success) {
        const lines = mappingProblems(parsed.error.issues).map((p) => `  ${p.path || '(file)'}: ${p.message}`);
        errors.push(`export.mapping: MAPPING_INVALID: ${file} is invalid:\n${lines.join('\n')}`);
      }
    } catch (error) {
      if (!isConnectorError(error)) throw error;
      errors.push(`export.mapping: ${error.code}: ${error.message}`);
    }
  }
  return errors;
}

/** What `check` warns about in the flows' mappings (placeholders left in); [] when a mapping cannot be read (its error says why). */
export function checkMappingWarnings(configFile: string, env: Env): string[] {
  return loadConfig(configFile, env).flows.flatMap((flow) => {
    try {
      return flowMappingWarnings(flow, loadMappingSpec(flow.mapping));
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
