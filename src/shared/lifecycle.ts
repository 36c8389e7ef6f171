/**
 * The one shape of every long-lived part of the daemon (the state lock, the store, each stage,
 * the listeners, the sandbox), and the runner that starts them in order and stops them in
 * reverse. After graphile-worker's `main.ts`: the composition root is a list, not bespoke code per
 * stage.
 *
 * - `start()` is always async and resolves with what the others need (the store's handle, a
 *   listener's URL); a second call returns the first call's promise.
 * - `stop()` is idempotent and waits for the work in progress; after it nothing of the component
 *   runs (no timer, no socket, no file handle).
 * - `reload(next)`, where a component has one, swaps in a new value that the daemon already
 *   validated (SIGHUP): a mapping, an acknowledgement format, a certificate. It never fails half
 *   way: whatever can be wrong with `next` was checked before any component saw it.
 */

export interface Component<Started = void> {
  /** For logs: `store`, `webhook listener`, `intake requests`. */
  readonly name: string;
  start(): Promise<Started>;
  stop(): Promise<void>;
}

/** A component whose configuration can be swapped while it runs. */
export interface Reloadable<Next> {
  reload(next: Next): void;
}

export interface Lifecycle {
  /** Start `component` after the ones already started; resolves with what its `start()` gave. */
  start<Started>(component: Component<Started>): Promise<Started>;
  /** Stop every started component in reverse order; a failure is reported and the rest still stop. */
  stopAll(): Promise<void>;
  /** Names of the started components, in start order. */
  readonly started: readonly string[];
}

/** A runner; `onStopFailure` hears about a component whose `stop()` threw (the rest go on). */
export function createLifecycle(onStopFailure: (name: string, error: unknown) => void): Lifecycle {
  const running: Component<unknown>[] = [];
  return {
    async start(component) {
      const started = await component.start();
      running.push(component);
      return started;
    },
    async stopAll() {
      for (const component of running.splice(0).reverse()) {
        try {
          await component.stop();
        } catch (error) {
          onStopFailure(component.name, error);
        }
      }
    },
    get started() {
      return running.map((c) => c.name);
    },
  };
}
