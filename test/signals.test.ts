import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runUntilSignalled } from '../src/signals.js';
import { silentLogger } from '../src/log.js';
import { withTempDir } from './helpers/temp-dir.js';
import { withSandbox } from './helpers/with-sandbox.js';
import { FAST_DELIVERY, FAST_INTAKE_YAML, REPO, withDaemon, writeConfig } from './helpers/with-daemon.js';
import { waitUntil } from './helpers/wait-until.js';

class Signals extends EventEmitter {
  send(signal: NodeJS.Signals) {
    this.emit(signal);
  }
}

describe('signals', () => {
  it('SIGTERM stops once, a second signal forces the exit, SIGHUP reloads', async () => {
    const signals = new Signals();
    let stops = 0;
    let reloads = 0;
    let release!: (outcome: 'stopped') => void;
    const exits: number[] = [];
    const daemon = {
      stop: () => {
        stops += 1;
        return new Promise<'stopped'>((resolve) => (release = resolve));
      },
      reload: () => {
        reloads += 1;
        return { ok: true };
      },
    };
    const done = runUntilSignalled(daemon, silentLogger, signals, (code) => exits.push(code));
    signals.send('SIGHUP');
    expect(reloads).toBe(1);
    signals.send('SIGTERM');
    expect(stops).toBe(1);
    signals.send('SIGINT');
    expect(exits).toEqual([1]);
    expect(stops).toBe(1);
    release('stopped');
    expect(await done).toBe('stopped');
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGHUP')).toBe(0);
  });

  it('SIGHUP keeps the old mappings when the new ones are invalid, and takes them when valid', async () => {
    await withTempDir(async (dir) => {
      await withSandbox({}, async (sandbox) => {
        const mapping = path.join(dir, 'requests.yaml');
        const good = fs.readFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), 'utf8');
        fs.writeFileSync(mapping, good);
        const config = writeConfig(
          dir,
          `
stateDir: {dir}/state
platform: { baseUrl: "${sandbox.url}", token: sandbox-token, sourceSystem: erp-test }
flows:
  - name: requests
    kind: requests
    inbox: {dir}/inbox
    mapping: ${mapping}
    results: {dir}/results
${FAST_INTAKE_YAML}
${FAST_DELIVERY}
metrics: { enabled: false }
`,
        );
        await withDaemon(config, async (daemon) => {
          fs.writeFileSync(mapping, good.replace('groupBy:', 'groupBy_typo:'));
          const rejected = daemon.reload();
          expect(rejected.ok).toBe(false);
          if (!rejected.ok) expect(rejected.errors.join('\n')).toContain('groupBy_typo');
          // the old mapping is still in use
          fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
          fs.copyFileSync(path.join(REPO, 'samples/requests-1c-windows1251.csv'), path.join(dir, 'inbox/a.csv'));
          await waitUntil(() => sandbox.requests().length === 3, 'the file mapped with the old mapping', 20_000);
          fs.writeFileSync(mapping, good);
          expect(daemon.reload()).toEqual({ ok: true });
        });
      });
    });
  });
});
