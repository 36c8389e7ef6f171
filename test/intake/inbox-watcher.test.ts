import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchInbox } from '../../src/intake/inbox-watcher.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('watchInbox', () => {
  it.each([
    ['inotify', false],
    ['polling', true],
  ])('tells of files added, changed and removed in the inbox, not of those in its own folders (%s)', async (_name, usePolling) => {
    await withTempDir(async (inbox) => {
      await fs.mkdir(path.join(inbox, 'processing'));
      let changes = 0;
      const watcher = await watchInbox({ inbox, usePolling, pollIntervalMs: 50, onChange: () => (changes += 1), logger: silentLogger });
      try {
        await fs.writeFile(path.join(inbox, 'processing', 'being-mapped.csv'), 'a;b\n');
        await fs.writeFile(path.join(inbox, 'requests.csv'), 'a;b\n');
        await waitUntil(() => changes >= 1, 'the new file told');
        const afterAdd = changes;
        await fs.rm(path.join(inbox, 'requests.csv'));
        await waitUntil(() => changes > afterAdd, 'the removal told');
        // Only the inbox's own file was told: once added, once removed (a change event may come between).
        expect(changes).toBeLessThanOrEqual(3);
      } finally {
        await watcher.close();
      }
    });
  });

  it('polling goes on without the first directory read after readyTimeoutMs', async () => {
    await withTempDir(async (inbox) => {
      const watcher = await watchInbox({ inbox, usePolling: true, pollIntervalMs: 100, onChange: () => undefined, logger: silentLogger, readyTimeoutMs: 0 });
      await watcher.close();
    });
  });

  it('without an inbox to watch, warns and leaves the finding to the rescans', async () => {
    await withTempDir(async (dir) => {
      const warnings: string[] = [];
      const logger = { ...silentLogger, warn: (_fields: unknown, message: string) => void warnings.push(message) } as unknown as typeof silentLogger;
      const watcher = await watchInbox({ inbox: path.join(dir, 'gone'), usePolling: false, pollIntervalMs: 100, onChange: () => undefined, logger });
      expect(warnings).toEqual(['inbox watcher could not start; relying on rescans']);
      await watcher.close();
    });
  });
});
