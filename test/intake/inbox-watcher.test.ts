import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchInbox } from '../../src/intake/inbox-watcher.js';
import { silentLogger } from '../../src/log.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('watchInbox', () => {
  it('tells of files added, changed and removed in the inbox, not of those in its own folders', async () => {
    await withTempDir(async (inbox) => {
      await fs.mkdir(path.join(inbox, 'processing'));
      let changes = 0;
      const watcher = await watchInbox({ inbox, usePolling: false, pollIntervalMs: 100, onChange: () => (changes += 1), logger: silentLogger });
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

  it('goes on without the first directory read after readyTimeoutMs', async () => {
    await withTempDir(async (inbox) => {
      const watcher = await watchInbox({ inbox, usePolling: false, pollIntervalMs: 100, onChange: () => undefined, logger: silentLogger, readyTimeoutMs: 0 });
      await watcher.close();
    });
  });
});
