/**
 * Config choices that work but weaken the daemon: said at start (`run` logs them) and by `check`,
 * never refused. A pure function of the loaded config, since the logger does not exist yet when
 * the config is read.
 */
import net from 'node:net';
import { exchangeCodeWarnings } from './exchange-code-warnings.js';
import type { Config } from './schema.js';

/** Shorter webhook secrets are warned about: an HMAC key that short can be guessed offline from one signed body. */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;
/** Shorter console passwords are warned about: a person chose it, and `0001` is no password. */
export const MIN_CONSOLE_PASSWORD_LENGTH = 12;

/** One line per weakness, naming the key; [] for a config with none. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [...exchangeCodeWarnings(config.flows), ...consoleWarnings(config)];
  const webhook = config.webhook;
  if (!webhook) return warnings;
  webhook.secrets.forEach((secret, index) => {
    const length = [...secret].length;
    if (length < MIN_WEBHOOK_SECRET_LENGTH) {
      warnings.push(
        `webhook.secrets[${index}] is ${length} characters long; use at least ${MIN_WEBHOOK_SECRET_LENGTH} random characters (openssl rand -hex 32)`,
      );
    }
  });
  if (!isLoopback(webhook.host)) {
    if (webhook.allowFrom.length === 0) {
      warnings.push(`webhook.host ${webhook.host} takes connections from other hosts and webhook.allowFrom is empty: list the platform's source ranges`);
    }
    if (!webhook.tls) {
      warnings.push(
        `webhook.host ${webhook.host} takes connections from other hosts over plain HTTP: set webhook.tls, or keep the listener on loopback behind a TLS proxy`,
      );
    }
  }
  return warnings;
}

/** A console password too short to be one; the console beyond loopback: useless without a password, and plain HTTP with one. */
function consoleWarnings(config: Config): string[] {
  const { metrics, console: operatorConsole } = config;
  const length = operatorConsole.password === undefined ? undefined : [...operatorConsole.password].length;
  const short =
    length !== undefined && length < MIN_CONSOLE_PASSWORD_LENGTH
      ? [
          `console.password is ${length} characters long; use at least ${MIN_CONSOLE_PASSWORD_LENGTH} (a passphrase, or openssl rand -base64 12): whoever reaches the console can retry, take files again and mark notices handled`,
        ]
      : [];
  if (!metrics.enabled || !operatorConsole.enabled || isLoopback(metrics.host)) return short;
  if (operatorConsole.password === undefined) {
    return [`metrics.host ${metrics.host} takes connections from other hosts and console.password is not set: the console refuses every page until it is`];
  }
  return [
    ...short,
    `metrics.host ${metrics.host} serves the console over plain HTTP to other hosts: its password crosses the network in clear; prefer loopback with an SSH tunnel or a TLS proxy`,
  ];
}

/** `127.0.0.0/8`, `::1` and `localhost`: only this host can connect. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.replace(/^::ffff:/i, '');
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  return host === '::1';
}
