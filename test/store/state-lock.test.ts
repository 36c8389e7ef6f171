/**
 * The stateDir lock inside one process: SQLite sees its own connections' locks too, so a second
 * take in this process is refused like one from another process (test/cli-process.test.ts
 * shows the cross-process case and the release on SIGKILL).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/daemon/index.js';
import { silentLogger } from '../../src/log.js';
import { acquireStateLock, lockFilePath, pidFilePath } from '../../src/store/state-lock.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { REQUESTS_FLOW, withDaemon, writeConfig } from '../helpers/with-daemon.js';

describe('acquireStateLock', () => {
  it('refuses a second holder with STATE_DIR_LOCKED naming the lock file and the PID, and is free again once released', async () => {
    await withTempDir((dir) => {
      const stateDir = path.join(dir, 'state');
      const lock = acquireStateLock(stateDir, 4242);
      expect(lock.file).toBe(lockFilePath(stateDir));
      expect(fs.readFileSync(pidFilePath(stateDir), 'utf8')).toBe('4242\n');
      expect(() => acquireStateLock(stateDir, 777)).toThrow(
        expect.objectContaining({
          code: 'STATE_DIR_LOCKED',
          message: `stateDir ${stateDir} is locked by PID 4242 (lock file ${path.join(stateDir, 'connector.lock')}): one daemon per stateDir`,
          details: { stateDir, lockFile: lockFilePath(stateDir), pid: 4242 },
        }),
      );
      lock.release();
      lock.release();
      expect(fs.existsSync(pidFilePath(stateDir))).toBe(false);
      const again = acquireStateLock(stateDir, 777);
      again.release();
    });
  });

  it('says the PID is unknown when the PID file is missing or garbage; the lock, not the file, decides', async () => {
    await withTempDir((dir) => {
      const lock = acquireStateLock(dir, 4242);
      fs.writeFileSync(pidFilePath(dir), 'not a pid');
      expect(() => acquireStateLock(dir)).toThrow(/locked by another process \(PID unknown\)/);
      lock.release();
      // A PID file left by a daemon that died is no obstacle.
      fs.writeFileSync(pidFilePath(dir), '4242\n');
      acquireStateLock(dir).release();
    });
  });
});

describe('startDaemon on a locked stateDir', () => {
  it('refuses to start before opening the store, and starts once the first has stopped', async () => {
    await withTempDir(async (dir) => {
      const config = writeConfig(
        dir,
        `
stateDir: {dir}/state
platform: { baseUrl: "http://127.0.0.1:9", token: lock-test-token, sourceSystem: erp-test }
flows:
${REQUESTS_FLOW}
metrics: { enabled: false }
`,
      );
      await withDaemon(config, async () => {
        await expect(startDaemon({ config, logger: silentLogger })).rejects.toMatchObject({ code: 'STATE_DIR_LOCKED' });
      });
      const daemon = await startDaemon({ config, logger: silentLogger });
      expect(await daemon.stop()).toBe('stopped');
    });
  });
});
