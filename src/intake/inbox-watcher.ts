/**
 * The inbox watcher: telling the intake that something changed in the inbox's top level. Its
 * events are only hints that bring the next full scan forward (shares lose events); what happens
 * in the intake's own folders (`processing/`, `archive/`, `rejected/`) is not one.
 *
 * On a local disk it is one `fs.watch` (inotify) on the folder, written here rather than taken from
 * chokidar: on every change of a folder chokidar reads it again and lstats each entry, and it
 * watches each file on its own, so an inbox of thousands of files costs thousands of system calls
 * per file taken, a large share of the intake's work when thousands wait (`docs/performance.md`). A hint
 * needs none of that: the scan reads the folder itself. With `usePolling` (shares, where inotify
 * sees nothing) chokidar polls, which is what it does well.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';
import type { Logger } from '../log.js';
import { isReservedName } from './inbox-names.js';

/** A running watcher; `close()` stops it. */
export interface InboxWatcher {
  close(): Promise<void>;
}

export interface InboxWatcherOptions {
  inbox: string;
  /** Stat polling instead of inotify (shares), every `pollIntervalMs`. */
  usePolling: boolean;
  pollIntervalMs: number;
  /** Called for each file added, changed or removed in the inbox. */
  onChange: () => void;
  logger: Logger;
  /** How long to wait for the first directory read (a slow share) before going on. Default 10 s. */
  readyTimeoutMs?: number;
}

const READY_TIMEOUT_MS = 10_000;

/**
 * Watch the inbox. With inotify it watches at once; polling resolves once chokidar is `ready` (or
 * after `readyTimeoutMs`, logged). Events before then can be lost: the intake scans after this
 * resolves, so nothing falls between.
 */
export function watchInbox(options: InboxWatcherOptions): Promise<InboxWatcher> {
  return options.usePolling ? pollInbox(options) : Promise.resolve(notifyInbox(options));
}

/** inotify on the inbox folder: one watch, the entry's name with each event and nothing read; hints of one turn are told once. */
function notifyInbox(options: InboxWatcherOptions): InboxWatcher {
  const { inbox, logger } = options;
  let told = false;
  const hint = (name: string | null): void => {
    if ((name !== null && isReservedName(name)) || told) return;
    told = true;
    setImmediate(() => {
      told = false;
      options.onChange();
    });
  };
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(inbox, (_event, name) => hint(name));
  } catch (error) {
    // Out of inotify watches (ENOSPC), say: the rescans still find every file, later.
    logger.warn({ err: error }, 'inbox watcher could not start; relying on rescans');
    return { close: () => Promise.resolve() };
  }
  watcher.on('error', (error) => logger.warn({ err: error }, 'inbox watcher error; the rescan still runs'));
  return {
    close() {
      watcher.close();
      return Promise.resolve();
    },
  };
}

/** chokidar's stat polling (shares). */
function pollInbox(options: InboxWatcherOptions): Promise<InboxWatcher> {
  const { inbox, logger } = options;
  const readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const watcher = watch(inbox, {
    depth: 0,
    ignoreInitial: true,
    usePolling: true,
    interval: options.pollIntervalMs,
    ignored: (p: string) => {
      const rel = path.relative(inbox, p);
      const top = rel.split(path.sep)[0] ?? '';
      return rel !== '' && isReservedName(top);
    },
  });
  const hint = () => options.onChange();
  watcher.on('add', hint).on('change', hint).on('unlink', hint);
  watcher.on('error', (error) => logger.warn({ err: error }, 'inbox watcher error; the rescan still runs'));
  return new Promise<InboxWatcher>((resolve) => {
    const timeout = setTimeout(() => {
      logger.warn({ waitedMs: readyTimeoutMs }, 'inbox watcher is not ready yet; relying on rescans until it is');
      resolve(watcher);
    }, readyTimeoutMs);
    watcher.once('ready', () => {
      clearTimeout(timeout);
      resolve(watcher);
    });
  });
}
