/**
 * The built CLI as systemd runs it: a stop past its bound exits 1 by itself, a second daemon on
 * one stateDir refuses to start, a SIGKILL while a large file is recorded leaves none of it
 * visible, and a config that cannot be read exits 2. And the built store as a process's last
 * work: its stop finishes before the process ends.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, storePath } from '../src/store/open-store.js';
import { withTempDir } from './helpers/temp-dir.js';
import { withSandbox } from './helpers/with-sandbox.js';
import { dropFile, requestFile } from './helpers/reliability/request-files.js';
import { REPO, REQUESTS_FLOW } from './helpers/with-daemon.js';
import { waitUntil } from './helpers/wait-until.js';
import { renewableCertificate, servedFingerprint } from './helpers/tls-material.js';
import { spawnCli, useBuiltCli } from './helpers/built-cli.js';

const built = useBuiltCli();

/** A daemon config with a webhook listener on a free port; nothing is ever sent to the platform. */
function daemonConfig(dir: string, extra = ''): string {
  const file = path.join(dir, 'connector.yaml');
  const yaml = `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:9", token: cli-test-token, sourceSystem: erp-test }
flows:
${REQUESTS_FLOW}
webhook:
  port: 0
  secrets: [cli-test-webhook-secret]
  headersTimeoutMs: 60000
  requestTimeoutMs: 60000
export: { folder: {dir}/status, mapping: {repo}/config/mappings/status-export.yaml }
metrics: { enabled: false }
${extra}`;
  fs.writeFileSync(file, yaml.replaceAll('{dir}', dir).replaceAll('{repo}', REPO));
  return file;
}

describe('run: the stop bound', () => {
  it('exits 1 by itself, without SIGKILL, when a webhook request keeps the stop from finishing', async () => {
    await withTempDir(async (dir) => {
      const daemon = spawnCli(built(), ['run', '-c', daemonConfig(dir, 'shutdownTimeoutMs: 100')]);
      const client = new net.Socket();
      try {
        const started = await daemon.started();
        const { hostname, port } = new URL((started.urls as { webhook: string }).webhook);
        // A request whose body never comes: its connection is busy, so the listener's stop waits
        // for it (up to requestTimeoutMs, 60 s), far past the bound of 100 ms + 3 s.
        let answered = '';
        client.on('data', (chunk: Buffer) => (answered += chunk.toString('utf8')));
        client.on('error', () => undefined);
        client.connect(Number(port), hostname, () =>
          client.write(
            'POST /webhooks/service HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
              'Content-Length: 100\r\nExpect: 100-continue\r\n\r\n{"eventId":',
          ),
        );
        // "100 Continue" comes once the listener has taken the request and is reading its body.
        await waitUntil(() => answered.startsWith('HTTP/1.1 100 Continue'), 'the listener reading the body');
        daemon.child.kill('SIGTERM');
        expect(await daemon.exited).toEqual({ code: 1, signal: null });
        // The logger was flushed before the exit.
        expect(daemon.logLines().map((line) => line.msg)).toContain('stop took longer than its bound; exiting anyway');
      } finally {
        client.destroy();
        await daemon.kill();
      }
    });
  });

  it('exits 0 after a stop within the bound', async () => {
    await withTempDir(async (dir) => {
      const daemon = spawnCli(built(), ['run', '-c', daemonConfig(dir)]);
      try {
        await daemon.started();
        daemon.child.kill('SIGTERM');
        expect(await daemon.exited).toEqual({ code: 0, signal: null });
      } finally {
        await daemon.kill();
      }
    });
  });
});

describe('the store: a stop that is the last work of its process', () => {
  it('finishes, the main connection closed, before the process ends (the helper thread is waited for)', () =>
    withTempDir(async (dir) => {
      // Nothing else keeps this process alive while the store stops: before, it ended while the
      // store's helper thread was closing, so the main connection was never closed and nothing
      // after the stop ran (exit code 13: a top-level await never settled).
      const openStoreJs = path.join(path.dirname(built().cli), 'store/open-store.js');
      const script = [
        `const { createStore, storePath } = await import(${JSON.stringify(openStoreJs)});`,
        `const store = createStore(storePath(${JSON.stringify(path.join(dir, 'state'))}));`,
        'const { db, durability } = await store.start();',
        "db.exec('CREATE TABLE probe (x)');",
        "db.prepare('INSERT INTO probe VALUES (1)').run();",
        'await durability.durable();',
        'await store.stop();',
        "console.log('store stopped, connection open: ' + db.open);",
      ].join('\n');
      // A script file writing to a file, nothing else open: a pipe to this process, or `node -e`,
      // would keep the child alive by themselves and hide the early end.
      const out = path.join(dir, 'out.txt');
      const fd = fs.openSync(out, 'w');
      const file = path.join(dir, 'stop-last.mjs');
      fs.writeFileSync(file, script);
      const child = spawn(process.execPath, [file], { stdio: ['ignore', fd, fd] });
      fs.closeSync(fd);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect({ code, output: fs.readFileSync(out, 'utf8').trim() }).toEqual({ code: 0, output: 'store stopped, connection open: false' });
      // The last connection closed checkpoints the WAL into the database and removes it.
      expect(fs.existsSync(`${storePath(path.join(dir, 'state'))}-wal`)).toBe(false);
      const db = openStore(storePath(path.join(dir, 'state')));
      try {
        expect(db.prepare('SELECT x FROM probe').all()).toEqual([{ x: 1 }]);
      } finally {
        db.close();
      }
    }));
});

describe('run: one daemon per stateDir', () => {
  it('refuses a second daemon (exit 1, STATE_DIR_LOCKED naming the lock and the PID) until the first dies', async () => {
    await withTempDir(async (dir) => {
      const config = daemonConfig(dir);
      const lockFile = path.join(dir, 'state', 'connector.lock');
      const first = spawnCli(built(), ['run', '-c', config]);
      try {
        await first.started();
        const second = spawnCli(built(), ['run', '-c', config]);
        expect(await second.exited).toEqual({ code: 1, signal: null });
        expect(second.stderr()).toContain(`STATE_DIR_LOCKED: stateDir ${path.join(dir, 'state')} is locked by PID ${first.pid} (lock file ${lockFile})`);
        expect(second.logLines().map((line) => line.msg)).not.toContain('connector started');

        // status reads the store while the daemon runs.
        const status = spawnCli(built(), ['status', '-c', config, '--json']);
        expect(await status.exited).toEqual({ code: 0, signal: null });

        // SIGKILL: no goodbye, yet the kernel drops the lock with the process.
        await first.kill();
        const third = spawnCli(built(), ['run', '-c', config]);
        try {
          await third.started();
          expect(fs.readFileSync(path.join(dir, 'state', 'connector.pid'), 'utf8').trim()).toBe(String(third.pid));
          third.child.kill('SIGTERM');
          expect(await third.exited).toEqual({ code: 0, signal: null });
        } finally {
          await third.kill();
        }
      } finally {
        await first.kill();
      }
    });
  });
});

describe('run: SIGKILL while a large file is recorded in chunks', () => {
  it('leaves nothing of the file visible or sent; the next run records it once', async () => {
    const requests = 10_000; // about 20,000 rows: dozens of chunks
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const config = path.join(dir, 'connector.yaml');
        fs.writeFileSync(
          config,
          `
stateDir: ${dir}/state
platform: { baseUrl: "${sandbox.url}", token: ${sandbox.token}, sourceSystem: erp-test }
flows:
${REQUESTS_FLOW.replaceAll('{dir}', dir).replaceAll('{repo}', REPO)}
delivery: { pollIntervalMs: 20 }
webhook: { port: 0, secrets: [cli-test-webhook-secret] }
export: { folder: ${dir}/status, mapping: ${REPO}/config/mappings/status-export.yaml }
metrics: { enabled: false }
`,
        );
        const count = (sql: string) => {
          const db = openStore(storePath(path.join(dir, 'state')), { readonly: true });
          try {
            return Object.fromEntries((db.prepare(sql).all() as { k: string; n: number }[]).map((r) => [r.k, r.n]));
          } finally {
            db.close();
          }
        };
        const submissions = () => count('SELECT state AS k, COUNT(*) AS n FROM submissions GROUP BY state');
        const files = () => count('SELECT state AS k, COUNT(*) AS n FROM files GROUP BY state');

        const first = spawnCli(built(), ['run', '-c', config]);
        try {
          await first.started();
          dropFile(path.join(dir, 'inbox'), 'big.csv', requestFile('KILL', 0, requests));
          await waitUntil(() => (submissions().staged ?? 0) > 0, 'the first chunks staged', { timeoutMs: 20_000, intervalMs: 2 });
          await first.kill();
        } finally {
          await first.kill();
        }
        // Killed between chunks: staged rows of a file still processing, nothing deliverable, nothing sent.
        expect(files()).toEqual({ processing: 1 });
        expect(Object.keys(submissions())).toEqual(['staged']);
        expect(sandbox.requests()).toEqual([]);

        const second = spawnCli(built(), ['run', '-c', config]);
        try {
          await second.started();
          await waitUntil(() => files().archived === 1, 'the file recorded after the restart', 30_000);
          second.child.kill('SIGTERM');
          expect(await second.exited).toEqual({ code: 0, signal: null });
        } finally {
          await second.kill();
        }
        const after = submissions();
        expect(after.staged).toBeUndefined();
        expect(Object.values(after).reduce((a, b) => a + b, 0)).toBe(requests);
        // Whatever was delivered after the restart went once per request, under one key.
        const sent = sandbox.requests().map((r) => r.externalId);
        expect(new Set(sent).size).toBe(sent.length);
        expect(sent.every((id) => id.startsWith('KILL-'))).toBe(true);
      });
    });
  });
});

describe('check and run: a config that cannot be read exits 2', () => {
  const bomb = [
    'a: &a [x,x,x,x,x,x,x,x,x]',
    ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
  ].join('\n');

  it.each([
    ['an alias bomb', (dir: string) => writeFile(dir, 'bomb.yaml', bomb), /CONFIG_INVALID: .*bomb\.yaml is invalid:\n.*Excessive alias count/],
    ['a directory', (dir: string) => dir, /CONFIG_INVALID: .* is invalid:\n.*is a directory/],
    ['a list at the top', (dir: string) => writeFile(dir, 'list.yaml', '- a\n- b\n'), /must be a YAML mapping/],
    ['a NUL byte', (dir: string) => writeFile(dir, 'nul.yaml', 'stateDir: ./x\0\n'), /NUL byte at offset 13/],
    ['a missing file', (dir: string) => path.join(dir, 'none.yaml'), /CONFIG_NOT_FOUND: /],
  ])('%s', async (_what, make, message) => {
    await withTempDir(async (dir) => {
      const file = make(dir);
      // `run` reads the config the same way; once is enough to show it exits 2 too.
      for (const command of file.endsWith('bomb.yaml') ? ['check', 'run'] : ['check']) {
        const cli = spawnCli(built(), [command, '-c', file]);
        expect(await cli.exited, command).toEqual({ code: 2, signal: null });
        expect(cli.stderr()).toMatch(message);
      }
    });
  });

  it('a mapping that is an alias bomb is MAPPING_INVALID, exit 2', async () => {
    await withTempDir(async (dir) => {
      const mapping = writeFile(dir, 'bomb-mapping.yaml', bomb);
      const config = daemonConfig(dir);
      fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace(/mapping: \S+1c-requests\.yaml/, `mapping: ${mapping}`));
      const cli = spawnCli(built(), ['check', '-c', config]);
      expect(await cli.exited).toEqual({ code: 2, signal: null });
      expect(cli.stderr()).toMatch(/MAPPING_INVALID: [\s\S]*bomb-mapping\.yaml is invalid:\n.*Excessive alias count/);
    });
  });
});

describe('run: the demo', () => {
  it('prints where the console is (and the rest of the demo hints), and the console answers there', async () => {
    await withTempDir(async (dir) => {
      // config/demo.yaml as `npm start` runs it, with free ports and its ./var under the temp folder.
      const demo = fs
        .readFileSync(path.join(REPO, 'config/demo.yaml'), 'utf8')
        .replaceAll('./var/', `${dir}/var/`)
        .replace(/port: \d+/g, 'port: 0');
      const config = writeFile(dir, 'demo.yaml', demo);
      const daemon = spawnCli(built(), ['run', '-c', config]);
      await daemon.started();
      await waitUntil(() => /Operator console: /.test(daemon.stderr()), 'the demo hints on stderr');
      const consoleUrl = /Operator console: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(daemon.stderr())?.[1];
      expect(consoleUrl, daemon.stderr()).toBeDefined();
      expect(daemon.stderr()).toContain('cp samples/requests-1c-windows1251.csv');
      expect(daemon.stderr()).toMatch(/cp samples\/requests-1c-report\.xlsx +\S+\/var\/inbox-xlsx\//);
      expect(daemon.stderr()).toMatch(/cp samples\/commerceml-orders\.xml +\S+\/var\/inbox-xml\//);
      // The walk-through's workbook and CommerceML export go through: one acknowledgement per request.
      fs.copyFileSync(path.join(REPO, 'samples/requests-1c-report.xlsx'), path.join(dir, 'var/inbox-xlsx/requests-1c-report.xlsx'));
      fs.copyFileSync(path.join(REPO, 'samples/commerceml-orders.xml'), path.join(dir, 'var/inbox-xml/commerceml-orders.xml'));
      const acks = () =>
        fs.existsSync(path.join(dir, 'var/import')) ? fs.readdirSync(path.join(dir, 'var/import')).filter((name) => name.startsWith('ack-')) : [];
      await waitUntil(() => acks().length >= 6, 'an acknowledgement for each request of the workbook and of the CommerceML export', { timeoutMs: 30_000 });
      expect(acks().filter((name) => /^ack-ЗК-00040[123]-\d+\.xlsx$/.test(name))).toHaveLength(3);
      expect(acks().filter((name) => /^ack-ЗК-00030[123]-\d+\.json$/.test(name))).toHaveLength(3);
      const page = await fetch(consoleUrl!);
      expect(page.status).toBe(200);
      // The demo speaks Russian (console.language: ru), as its users do.
      expect(await page.text()).toContain('<html lang="ru">');
      process.kill(daemon.pid, 'SIGTERM');
      expect(await daemon.exited).toEqual({ code: 0, signal: null });
    });
  });
});

describe('run: SIGHUP', () => {
  it('serves the new webhook certificate after a SIGHUP, and keeps it when the next pair does not load', async () => {
    await withTempDir(async (dir) => {
      const { first, second, certFile, keyFile, renew } = renewableCertificate(dir);
      const config = daemonConfig(dir);
      fs.writeFileSync(
        config,
        fs
          .readFileSync(config, 'utf8')
          .replace(
            '  secrets: [cli-test-webhook-secret]',
            `  secrets: [cli-test-webhook-secret]\n  tls: { cert: { fromFile: ${certFile} }, key: { fromFile: ${keyFile} } }`,
          ),
      );
      const daemon = spawnCli(built(), ['run', '-c', config]);
      const url = ((await daemon.started()).urls as { webhook: string }).webhook;
      expect(url).toMatch(/^https:\/\//);
      expect(await servedFingerprint(url)).toBe(first.fingerprint256);

      // As an operator renews a certificate: new files in place, then `systemctl reload`.
      renew();
      process.kill(daemon.pid, 'SIGHUP');
      await waitUntil(async () => (await servedFingerprint(url)) === second.fingerprint256, 'the new certificate served');

      fs.writeFileSync(keyFile, first.key); // a key that does not fit the certificate
      const before = daemon.logLines().length;
      process.kill(daemon.pid, 'SIGHUP');
      await waitUntil(
        () =>
          daemon
            .logLines()
            .slice(before)
            .some((line) => /certificate and key do not load/.test(JSON.stringify(line))),
        'the refused reload logged',
      );
      expect(await servedFingerprint(url)).toBe(second.fingerprint256);

      process.kill(daemon.pid, 'SIGTERM');
      expect(await daemon.exited).toEqual({ code: 0, signal: null });
    });
  });
});

describe('check: warnings', () => {
  it('prints a short webhook secret as a warning on stderr and still passes', async () => {
    await withTempDir(async (dir) => {
      const config = daemonConfig(dir);
      fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('cli-test-webhook-secret', 'short'));
      const cli = spawnCli(built(), ['check', '-c', config]);
      expect(await cli.exited).toEqual({ code: 0, signal: null });
      expect(cli.stdout()).toBe('OK\n');
      expect(cli.stderr()).toMatch(/^warning: webhook\.secrets\[0\] is 5 characters long/);
    });
  });
});

function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}
