/**
 * The inbox watcher: chokidar on the inbox's top level, telling the intake that something changed.
 * Its events are only hints that bring the next full scan forward (shares lose events); what
 * happens in the intake's own folders (`processing/`, `archive/`, `rejected/`) is not one.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '../log.js';
import { isReservedName } from './inbox-names.js';

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
 * Watch the inbox; resolves once chokidar is `ready` (or after `readyTimeoutMs`, logged), with the
 * watcher to close. Events before `ready` can be lost: the intake scans after this resolves, so
 * nothing falls between.
 */
export function watchInbox(options: InboxWatcherOptions): Promise<FSWatcher> {
  const { inbox, logger } = options;
  const readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const watcher = watch(inbox, {
    depth: 0,
    ignoreInitial: true,
    usePolling: options.usePolling,
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
  return new Promise<FSWatcher>((resolve) => {
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
