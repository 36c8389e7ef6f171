/**
 * How many files are read and recorded at once, across all flows. Each flow takes its files one at
 * a time already; a daemon with six busy flows still held six files' worth of mapping at once, and
 * V8 sizes its next collection from what is alive at the last one: six large files alive together
 * let its heap grow several times past what one file needs before it collected again. The gate
 * bounds the sum (`intake.concurrentFiles`, docs/reliability.md "Memory budget"); the files that
 * wait are taken in the order they asked, so no flow waits for ever behind the others.
 */

export interface FileGate {
  /**
   * Run `take` once a place is free, and free it when `take` settles. Rejects with `signal`'s
   * reason, without running `take`, when `signal` aborts while it waits.
   */
  run<T>(take: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Files being taken now, and files waiting for a place. */
  readonly taking: number;
  readonly waiting: number;
}

export function createFileGate(places: number): FileGate {
  if (!Number.isInteger(places) || places < 1) throw new RangeError(`a file gate needs at least one place, not ${places}`);
  let taking = 0;
  const queue: (() => void)[] = [];

  const release = () => {
    taking -= 1;
    // Waiters whose signal aborted left the queue themselves.
    const admit = queue.shift();
    if (admit) {
      taking += 1;
      admit();
    }
  };

  const place = (signal: AbortSignal | undefined): Promise<void> => {
    signal?.throwIfAborted();
    if (taking < places) {
      taking += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const admit = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        queue.splice(queue.indexOf(admit), 1);
        reject(signal!.reason);
      };
      queue.push(admit);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };

  return {
    async run(take, signal) {
      await place(signal);
      try {
        return await take();
      } finally {
        release();
      }
    },
    get taking() {
      return taking;
    },
    get waiting() {
      return queue.length;
    },
  };
}

/** No bound beyond each flow's own one file at a time: what an intake runs with when no gate is given. */
export const UNGATED: FileGate = { run: (take) => take(), taking: 0, waiting: 0 };
