/**
 * Secrets: the token and the webhook secrets never appear in a byte the daemon wrote (stdout,
 * stderr, the state folder, inbox folders, reports, import files). Every other scenario of the suite
 * ends with the same grep over its own tree; this one provokes the paths most likely to leak, at
 * `debug` level: the platform refusing the token (401), the platform unreachable (connection errors
 * carry the URL, and the token is a path segment of it), and webhooks with bad signatures.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { withDaemonProcess } from '../helpers/reliability/daemon-process.js';
import { dropFile, requestFile } from '../helpers/reliability/request-files.js';
import { SECRETS, findSecrets, freePort, prepareDaemon, walkFiles } from '../helpers/reliability/setup.js';
import { waitUntil } from '../helpers/wait-until.js';
import { sendAll, signed, statusEvent } from '../helpers/reliability/webhook-sender.js';

/** Rewrite the daemon's config file in place (same state, other settings). */
function editConfig(file: string, edit: (config: Record<string, Record<string, unknown>>) => void): void {
  const config = YAML.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  edit(config);
  fs.writeFileSync(file, YAML.stringify(config));
}

describe('reliability: secrets', () => {
  it('writes neither the token nor a webhook secret anywhere, even when the token is refused or the platform is down', async () => {
    const started = Date.now();
    await withTempDir(async (root) => {
      // The sandbox knows another token: every call of the daemon is refused with 401.
      await withSandbox({ token: 'a-token-the-daemon-does-not-have', supplierToken: SECRETS.supplierToken }, async (sandbox) => {
        const layout = await prepareDaemon(root, sandbox.url);
        editConfig(layout.configFile, (c) => {
          c.log = { level: 'debug' };
        });
        const logText = () =>
          walkFiles(layout.logDir)
            .map((f) => fs.readFileSync(f, 'utf8'))
            .join('\n');
        await withDaemonProcess({ configFile: layout.configFile, webhookPort: layout.webhookPort, logDir: layout.logDir }, async (daemon) => {
          await daemon.start();
          dropFile(layout.inbox, 'secrets-1.csv', requestFile('SEC', 0, 3));
          const hooks = [1, 2, 3].map((n) => statusEvent(n, `EVT-00000${n}`));
          const results = await sendAll(
            `${daemon.webhookBase}/webhooks/service`,
            [
              ...hooks.map((body) => ({ body, signature: signed(SECRETS.webhookSecret, body), kind: 'good' as const, eventId: '' })),
              ...hooks.map((body) => ({ body, signature: signed(SECRETS.webhookSecretOld, `${body} `), kind: 'bad' as const, eventId: '' })),
            ],
            { concurrency: 2, connections: 2 },
          );
          expect(results.map((r) => r.status)).toEqual([200, 200, 200, 401, 401, 401]);
          await waitUntil(() => sandbox.calls().some((c) => c.status === 401), 'a call refused with 401', 30_000);
          await waitUntil(() => logText().includes('401'), 'the 401 in the daemon log', 30_000);
          expect(await daemon.stop()).toBe(0);

          // Same state, the platform unreachable: connection errors name the URL that holds the token.
          const closedPort = await freePort();
          editConfig(layout.configFile, (c) => {
            c.platform!.baseUrl = `http://127.0.0.1:${closedPort}`;
          });
          const before = logText().length;
          await daemon.start();
          dropFile(layout.inbox, 'secrets-2.csv', requestFile('SEC', 10, 13));
          await waitUntil(() => /ECONNREFUSED|PLATFORM_UNAVAILABLE/.test(logText().slice(before)), 'a connection error in the daemon log', 30_000);
          expect(await daemon.stop()).toBe(0);
          expect(daemon.unexpectedExits).toBe(0);

          const written = walkFiles(root).filter((f) => f !== layout.configFile);
          expect(written.length).toBeGreaterThan(5);
          expect(findSecrets([root], Object.values(SECRETS), [layout.configFile])).toEqual([]);
          // The grep can fail: the config file, which must hold them, is found by it.
          expect(findSecrets([path.dirname(layout.configFile)], [SECRETS.token], []).map((f) => f.file)).toContain(layout.configFile);
          console.info(`[reliability secrets] filesScanned=${written.length} logBytes=${logText().length} durationMs=${Date.now() - started}`);
        });
      });
    });
  });
});
