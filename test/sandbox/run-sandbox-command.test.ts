import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../../src/errors.js';
import { silentLogger } from '../../src/log.js';
import { runSandboxCommand, startSandboxFromFlags } from '../../src/sandbox/run-sandbox-command.js';
import { createUrl, post } from '../helpers/sandbox-calls.js';
import { validRequest } from '../helpers/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('sandbox command', () => {
  it('refuses invalid flags with CONFIG_INVALID naming each flag', async () => {
    const error: unknown = await startSandboxFromFlags({ port: 'eighty', webhookUrl: 'not a url' }, silentLogger).catch((e: unknown) => e);
    expect(isConnectorError(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as Error).message).toContain('--port');
    expect((error as Error).message).toContain('--webhookUrl');
  });

  it('prints the URL, serves until SIGTERM, then stops', async () => {
    const out: string[] = [];
    const signals = new EventEmitter();
    const io = {
      logger: silentLogger,
      stdout: { write: (text: string) => out.push(text) },
      signals: {
        once: (name: 'SIGINT' | 'SIGTERM', fn: () => void) => signals.once(name, fn),
        exit: (code: number): never => {
          throw new Error(`exit ${code}`);
        },
      },
    };
    const running = runSandboxCommand({ port: '0', token: 'cli-token', supplierToken: 'cli-supplier' }, io);
    const line = await waitUntil(() => out.find((l) => l.startsWith('Sandbox listening on ')), 'the URL line');
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0] as string;
    const reply = await post(createUrl({ url, token: 'cli-token' } as never), validRequest());
    expect(reply.status).toBe(201);
    signals.emit('SIGTERM');
    await running;
    await expect(post(createUrl({ url, token: 'cli-token' } as never), validRequest())).rejects.toThrow();
  });
});
