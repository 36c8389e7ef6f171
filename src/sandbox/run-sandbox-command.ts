/**
 * `procurement-connector sandbox`: start the sandbox from command-line flags, print its URL, run
 * until SIGINT or SIGTERM, then stop cleanly (a second signal forces the exit).
 */
import { z } from 'zod';
import { ConnectorError } from '../errors.js';
import { createLogger, registerSecret, type Logger } from '../log.js';
import { issuesToFieldErrors } from '../platform/contract.js';
import { startSandbox, type Sandbox } from './index.js';

/** The flags as commander hands them over (strings). */
export interface SandboxCommandFlags {
  port?: string;
  host?: string;
  token?: string;
  supplierToken?: string;
  webhookUrl?: string;
  webhookSecret?: string;
  demo?: boolean;
}

const flagsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65_535).default(0),
  host: z.string().min(1).default('127.0.0.1'),
  token: z.string().min(1).optional(),
  supplierToken: z.string().min(1).optional(),
  webhookUrl: z.url({ protocol: /^https?$/ }).optional(),
  webhookSecret: z.string().min(1).optional(),
  demo: z.boolean().default(false),
});

/** What the command needs from the process: where to print, and the signals to wait for. */
export interface CommandIo {
  stdout: { write(text: string): unknown };
  signals: { once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown; exit(code: number): never };
  /** Default: the root JSON logger on stdout. */
  logger?: Logger;
}

/** Parse the flags (a CONFIG_INVALID error lists each bad flag) and start the sandbox. */
export async function startSandboxFromFlags(flags: SandboxCommandFlags, logger: Logger = createLogger()): Promise<Sandbox> {
  const parsed = flagsSchema.safeParse(flags);
  if (!parsed.success) {
    const problems = issuesToFieldErrors(parsed.error.issues).map((e) => `--${e.path.replace(/^\$\.?/, '')}: ${e.message}`);
    throw new ConnectorError('CONFIG_INVALID', `sandbox: invalid flags\n${problems.join('\n')}`);
  }
  const options = parsed.data;
  for (const secret of [options.token, options.supplierToken, options.webhookSecret]) registerSecret(secret);
  return startSandbox({ ...options, portKey: '--port', logger });
}

export async function runSandboxCommand(flags: SandboxCommandFlags, io: CommandIo): Promise<void> {
  const sandbox = await startSandboxFromFlags(flags, io.logger);
  io.stdout.write(`Sandbox listening on ${sandbox.url}${flags.demo ? ' (demo: orders progress by themselves)' : ''}\n`);
  const signal = await new Promise<string>((resolve) => {
    io.signals.once('SIGINT', () => resolve('SIGINT'));
    io.signals.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const force = (): never => io.signals.exit(130);
  io.signals.once('SIGINT', force);
  io.signals.once('SIGTERM', force);
  io.stdout.write(`${signal}: stopping the sandbox\n`);
  await sandbox.stop();
}
