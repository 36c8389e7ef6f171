#!/usr/bin/env node
/**
 * `procurement-connector`: the command line. Commands only; each delegates to its stage.
 * Exit codes: 0 ok, 1 failure, 2 invalid config, mapping or arguments.
 */
import { Command, CommanderError } from 'commander';
import { isConnectorError } from './errors.js';

const program = new Command()
  .name('procurement-connector')
  .description('Connects an ERP to the procurement platform: file intake, delivery, webhooks, export.')
  .showHelpAfterError()
  .exitOverride();

// --- commands (each block registers one subcommand) -------------------------------------------

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
    process.stderr.write(`${isConnectorError(error) ? `${error.code}: ` : ''}${(error as Error).message ?? String(error)}\n`);
  }
  process.exitCode = code;
}
