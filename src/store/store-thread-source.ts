/**
 * The code of the store's helper thread (`store-thread.ts`), evaluated from a string so that it
 * runs the same from the compiled program, the tests (which run the TypeScript sources) and the
 * release package; it loads better-sqlite3 from the path its owner resolves.
 *
 * Messages in: a number (fsync the WAL, answer with that id; when a checkpoint is due, it runs
 * after the fsync, before the answer: see `store-thread.ts`), `'checkpoint'` (one now), `'close'`.
 * Messages out: `{ id, synced, ms }` (how long the fdatasync took) or `{ id, error }` for an
 * fsync; `{ checkpoint: { log, checkpointed } }` or `{ checkpoint: { error, code } }` after every
 * checkpoint (its last pass), timed or asked for. A checkpoint that
 * fails is reported, not thrown: on a full disk it fails until space comes back, and the thread
 * has to be there when it does.
 */
export const STORE_THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('cache_size = -1024');
let fd = null;
let folderSynced = false;
let lastCheckpointAt = performance.now();
const CATCH_UP_PASSES = 4;
let lastSyncAt = Number.NEGATIVE_INFINITY;
const checkpoint = () => {
  lastCheckpointAt = performance.now();
  try {
    // Commits that land while a checkpoint copies (the listener's do not wait for it) leave frames
    // behind it, and the WAL cannot start over until a checkpoint has copied every frame. Copying
    // what they added takes a fraction of the time, so another pass or two usually catches up:
    // caught up once a pass finds no more frames than the last one (or cannot copy them all).
    let [result] = db.pragma('wal_checkpoint(PASSIVE)');
    for (let pass = 1; pass < CATCH_UP_PASSES && result.log > 0 && result.checkpointed === result.log; pass += 1) {
      const [again] = db.pragma('wal_checkpoint(PASSIVE)');
      const caughtUp = again.log === result.log;
      result = again;
      if (caughtUp) break;
    }
    parentPort.postMessage({ checkpoint: { log: result.log, checkpointed: result.checkpointed } });
  } catch (error) {
    parentPort.postMessage({ checkpoint: { error: String((error && error.message) || error), code: error && error.code } });
  }
};
// While fsyncs are asked for, the checkpoint runs after one of them (below); the timer runs it
// when none has been asked for a while.
const timer = setInterval(() => {
  if (performance.now() - lastSyncAt >= workerData.checkpointIntervalMs) checkpoint();
}, workerData.checkpointIntervalMs);
parentPort.on('message', (id) => {
  if (id === 'close') {
    clearInterval(timer);
    if (fd !== null) fs.closeSync(fd);
    db.close();
    parentPort.close();
    return;
  }
  if (id === 'checkpoint') return checkpoint();
  try {
    if (fd === null) {
      try {
        fd = fs.openSync(workerData.file + '-wal', 'r');
      } catch (error) {
        if (error && error.code === 'ENOENT') return parentPort.postMessage({ id, synced: false });
        throw error;
      }
    }
    // fdatasync, as SQLite syncs its own WAL: the data and the size, not the times (docs/performance.md).
    const began = performance.now();
    fs.fdatasyncSync(fd);
    const ms = performance.now() - began;
    if (!folderSynced) {
      const folder = fs.openSync(path.dirname(workerData.file), 'r');
      try {
        fs.fsyncSync(folder);
      } finally {
        fs.closeSync(folder);
      }
      folderSynced = true;
    }
    lastSyncAt = performance.now();
    if (lastSyncAt - lastCheckpointAt >= workerData.syncedCheckpointMs) checkpoint();
    parentPort.postMessage({ id, synced: true, ms });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

/** A message from the thread. */
export interface StoreThreadReply {
  id?: number;
  synced?: boolean;
  /** How long the fdatasync took, in ms. */
  ms?: number;
  error?: string;
  checkpoint?: { log?: number; checkpointed?: number; error?: string; code?: string };
}
