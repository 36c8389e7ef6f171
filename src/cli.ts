#!/usr/bin/env node
/**
 * `procurement-connector`: the command line. Commands only; each delegates to its stage.
 * Exit codes: 0 ok, 1 failure (a stop past its bound, STATE_DIR_LOCKED, …), 2 invalid config,
 * mapping or arguments.
 */
import fs from 'node:fs';
import { Argument, Command, CommanderError, Option } from 'commander';
import { JSON_SCHEMA_NAMES, type JsonSchemaName } from './config/schema-files.js';
import { isConnectorError } from './errors.js';
import { scrubSecrets } from './log.js';
import { decideLogOutput, type LogOutput } from './shared/log-output.js';
import { describeVersion } from './version.js';

const program = new Command()
  .name('procurement-connector')
  .description('Connects an ERP to the procurement platform: file intake, delivery, webhooks, export.')
  .version(describeVersion(), '-V, --version', 'print the version and the commit it was built from')
  // The log's form, for the commands that log (run, sandbox); before or after the command name.
  .option('--pretty', 'human-readable log (pino-pretty), also when stdout is not a terminal')
  .option('--no-pretty', 'JSON log lines, also on a terminal')
  .configureHelp({ showGlobalOptions: true })
  .showHelpAfterError()
  .exitOverride();

/**
 * The form of the log: pretty on a terminal or with --pretty, else JSON lines, with journald
 * priority prefixes when stdout is the journal stream systemd gave us. The one place that looks at
 * stdout and the environment for it.
 */
function logOutput(): LogOutput {
  let stdoutId: string | undefined;
  try {
    const stat = fs.fstatSync(1, { bigint: true });
    stdoutId = `${stat.dev}:${stat.ino}`;
  } catch {
    stdoutId = undefined; // stdout closed: no journal to speak to
  }
  return decideLogOutput({
    pretty: program.opts<{ pretty?: boolean }>().pretty,
    stdoutIsTty: process.stdout.isTTY === true,
    journalStream: process.env.JOURNAL_STREAM,
    stdoutId,
    noColor: Boolean(process.env.NO_COLOR),
  });
}

// --- commands (each block registers one subcommand) -------------------------------------------

// delivery: `status` and `retry` (src/delivery/outbox-status.ts)
program
  .command('status')
  .description('Summarise the outbox: counts per flow and state, oldest pending, last errors, dead letters.')
  .requiredOption('-c, --config <file>', 'the daemon config (YAML)')
  .option('--json', 'print JSON instead of text')
  .action(async (options: { config: string; json?: boolean }) => {
    const { loadConfig } = await import('./config/load-config.js');
    const { statusForConfig, formatOutboxStatus } = await import('./delivery/outbox-status.js');
    const status = statusForConfig(loadConfig(options.config, process.env));
    process.stdout.write(`${options.json ? JSON.stringify(status, null, 2) : formatOutboxStatus(status)}\n`);
  });

program
  .command('retry')
  .description('Requeue finished submissions (by externalId, all dead letters, or all rejected) with their original key.')
  .requiredOption('-c, --config <file>', 'the daemon config (YAML)')
  .argument('[externalId]', 'the externalId (or order id) to requeue')
  .option('--dead', 'requeue every dead-lettered submission')
  .option('--rejected', 'requeue every rejected submission')
  .option('--flow <name>', 'only this flow')
  .action(async (externalId: string | undefined, options: { config: string; dead?: boolean; rejected?: boolean; flow?: string }) => {
    const chosen = [externalId !== undefined, Boolean(options.dead), Boolean(options.rejected)].filter(Boolean).length;
    if (chosen !== 1) program.error('retry: give exactly one of <externalId>, --dead or --rejected', { exitCode: 2 });
    const { loadConfig } = await import('./config/load-config.js');
    const { requeueForConfig } = await import('./delivery/outbox-status.js');
    const target = externalId !== undefined ? { externalId } : options.dead ? { dead: true as const } : { rejected: true as const };
    const count = requeueForConfig(loadConfig(options.config, process.env), target, options.flow);
    process.stdout.write(`Requeued ${count} submission(s).\n`);
  });
// end of delivery block

// sandbox: `sandbox` (src/sandbox/run-sandbox-command.ts)
program
  .command('sandbox')
  .description('Run the platform sandbox (a strict emulator for tests and demos) until SIGINT/SIGTERM.')
  .option('--port <port>', 'port to listen on; 0 picks a free one (the URL is printed)', '0')
  .option('--host <host>', 'interface to bind', '127.0.0.1')
  .option('--token <token>', 'buyer access token (default sandbox-token)')
  .option('--supplier-token <token>', 'supplier access token (default sandbox-supplier-token)')
  .option('--webhook-url <url>', 'where order status webhooks are POSTed')
  .option('--webhook-secret <secret>', 'HMAC-SHA256 key of X-Service-Signature')
  .option('--demo', 'orders progress by themselves: confirmed, shipped, delivered')
  .action(
    async (options: { port: string; host: string; token?: string; supplierToken?: string; webhookUrl?: string; webhookSecret?: string; demo?: boolean }) => {
      const { runSandboxCommand } = await import('./sandbox/run-sandbox-command.js');
      const { createLogger } = await import('./log.js');
      await runSandboxCommand(options, { stdout: process.stdout, signals: process, logger: createLogger({ output: logOutput() }) });
    },
  );
// end of sandbox block

// mapping: `preview` and `check` (src/mapping/run-mapping-commands.ts)
program
  .command('preview')
  .description(
    "Map an input file as a flow would (--config: the flow's mapping and rules) or as a mapping alone would (--mapping), and print the payloads and every problem; touches no store or folder. Exit 0 clean, 1 problems, 2 a config, mapping or argument error.",
  )
  .usage('(--config <file> [--flow <name>] | --mapping <file>) [--json] <input-file>')
  .option('-c, --config <file>', "the daemon config (YAML): the flow's mapping and rules")
  .option('--flow <name>', 'with --config: the flow whose mapping and rules to use (needed when the config has several)')
  .option(
    '-m, --mapping <file>',
    "a mapping file (one `mapping suggest` wrote, say): alone, it maps with a flow's default rules (dates in the past rejected); with --config, it replaces the flow's mapping",
  )
  .option('--json', 'print one JSON object { "requests": [...], "problems": [...] }')
  .argument('<input-file>', "the file to preview: CSV, JSON, NDJSON, XLSX or XML (CommerceML, 1C's EnterpriseData messages, zipped too)")
  .action(async (input: string, options: { config?: string; flow?: string; mapping?: string; json?: boolean }, command: Command) => {
    const { previewUsageProblem, runPreviewCommand } = await import('./mapping/run-mapping-commands.js');
    const usage = previewUsageProblem(options);
    if (usage !== undefined) command.error(`error: ${usage}`, { exitCode: 2, code: 'preview.usage' });
    const { output, exitCode } = await runPreviewCommand(input, options, process.env);
    process.stdout.write(output);
    process.exitCode = exitCode;
  });

program
  .command('check')
  .description('Validate the config and every mapping it names; prints OK or lists every error (exit 2).')
  .requiredOption('-c, --config <file>', 'the daemon config (YAML)')
  .action(async (options: { config: string }) => {
    const { runCheckCommand, checkMappingWarnings } = await import('./mapping/run-mapping-commands.js');
    const output = runCheckCommand(options.config, process.env);
    const { loadConfig } = await import('./config/load-config.js');
    const { configWarnings } = await import('./config/config-warnings.js');
    const warnings = [...configWarnings(loadConfig(options.config, process.env)), ...checkMappingWarnings(options.config, process.env)];
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
    process.stdout.write(output);
  });

// mapping tools: `mapping suggest` (src/mapping/suggest/run-suggest-command.ts)
const mappingTools = program.command('mapping').description('Tools for writing a mapping: `mapping suggest <sample>`.');
mappingTools
  .command('suggest')
  .description(
    'Suggest a mapping from a sample export: encoding, delimiter, grouping, dates and columns, with reasons and TODO lines; then preview the sample with it. Exit 0 complete, 1 partial (TODOs left) or nothing mapped, 2 bad arguments.',
  )
  .argument('<sample>', 'a sample export (CSV, JSON or NDJSON)')
  .addOption(new Option('--kind <kind>', 'what the sample holds').choices(['requests', 'confirmations']).default('requests'))
  .option('--out <file>', 'write the mapping to this file instead of stdout (the summary then goes to stdout)')
  .option('--force', 'with --out, replace an existing file')
  .action(async (sample: string, options: { kind: 'requests' | 'confirmations'; out?: string; force?: boolean }) => {
    const { runSuggestCommand } = await import('./mapping/suggest/run-suggest-command.js');
    const result = await runSuggestCommand(sample, options);
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exitCode = result.exitCode;
  });
// end of mapping block

// config: `schema` (src/config/json-schema.ts)
program
  .command('schema')
  .description(
    'Print the JSON Schema of a config or mapping file (for an editor: the YAML language server reads `# yaml-language-server: $schema=<file>`); without a name, list the names.',
  )
  .addArgument(new Argument('[name]', 'which schema').choices(JSON_SCHEMA_NAMES))
  .action(async (name: JsonSchemaName | undefined) => {
    if (name === undefined) {
      process.stdout.write(`${JSON_SCHEMA_NAMES.join('\n')}\n`);
      return;
    }
    const { jsonSchemaOf } = await import('./config/json-schema.js');
    process.stdout.write(`${JSON.stringify(jsonSchemaOf(name), null, 2)}\n`);
  });
// end of config block

// daemon: `run` (src/daemon/, src/signals.ts)
program
  .command('run')
  .description('Run the daemon: intake, delivery, webhooks, export and schedules, until SIGTERM/SIGINT (SIGHUP reloads mappings and the TLS certificate).')
  .requiredOption('-c, --config <file>', 'the daemon config (YAML)')
  .action(async (options: { config: string }) => {
    const { loadConfig } = await import('./config/load-config.js');
    const { configWarnings } = await import('./config/config-warnings.js');
    const { createLogger } = await import('./log.js');
    const { startDaemon } = await import('./daemon/index.js');
    const { runUntilSignalled, exitCodeForOutcome } = await import('./signals.js');
    const config = loadConfig(options.config, process.env);
    const logger = createLogger({ level: config.log.level, output: logOutput() });
    for (const warning of configWarnings(config)) logger.warn({ config: options.config }, warning);
    // Signals are handled from the first moment: a SIGTERM during a long start (recovery of a big
    // file) waits for the start and then stops gracefully, instead of killing the process.
    const starting = startDaemon({ config, logger, reloadConfig: () => loadConfig(options.config, process.env) });
    let startedDaemon: Awaited<typeof starting> | null = null;
    const stopped = runUntilSignalled({ stop: async () => (await starting).stop(), reload: () => startedDaemon?.reload() ?? { ok: false } }, logger);
    startedDaemon = await starting;
    if (startedDaemon.sandbox) {
      const { demoHints } = await import('./sandbox/demo-hints.js');
      process.stderr.write(demoHints(config, startedDaemon.urls, { configFile: options.config }));
    }
    const exitCode = exitCodeForOutcome(await stopped);
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    // A stop past its bound leaves something open (a socket, a timer) that would keep the process
    // alive until systemd's SIGKILL; everything committed is durable, so exit now.
    if (exitCode !== 0) process.exit(exitCode);
  });
// end of daemon block

// --- end of commands ----------------------------------------------------------------------------

/** Exit code for an error thrown out of a command. */
function exitCodeFor(error: unknown): number {
  if (isConnectorError(error) && ['CONFIG_INVALID', 'CONFIG_NOT_FOUND', 'MAPPING_INVALID', 'SECRET_UNAVAILABLE'].includes(error.code)) return 2;
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  return 1;
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const code = exitCodeFor(error);
  if (!(error instanceof CommanderError)) {
    process.stderr.write(scrubSecrets(`${isConnectorError(error) ? `${error.code}: ` : ''}${(error as Error).message ?? String(error)}\n`));
  }
  process.exitCode = code;
}
