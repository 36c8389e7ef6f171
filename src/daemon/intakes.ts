/** One intake per flow, started in the flows' order, all sharing one file gate. */
import type { MappingSpec } from '../config/mapping-schema.js';
import type { Config } from '../config/schema.js';
import type { Dispatcher } from '../delivery/dispatcher.js';
import { createFileGate, createIntake, type Intake } from '../intake/index.js';
import type { Logger } from '../log.js';
import { createMapThread } from '../mapping/map-thread.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Lifecycle } from '../shared/lifecycle.js';
import type { Clock, WaitDurable } from '../shared/types.js';
import type { Db } from '../store/open-store.js';

export interface IntakesDeps {
  config: Config;
  /** Each flow's mapping, already read and checked. */
  mappings: ReadonlyMap<string, MappingSpec>;
  db: Db;
  /** Woken when a file recorded requests. */
  dispatcher: Pick<Dispatcher, 'wake'>;
  metrics: Metrics;
  logger: Logger;
  clock: Clock;
  durable: WaitDurable;
}

/** Create and start every flow's intake (each recovers what a crash left in its `processing/` as it starts); by flow name. */
export async function startIntakes(lifecycle: Lifecycle, deps: IntakesDeps): Promise<Map<string, Intake>> {
  const { config, metrics, dispatcher } = deps;
  const intakes = new Map<string, Intake>();
  // One gate for every flow: the files taken at once are what the memory budget counts.
  const fileGate = createFileGate(config.intake.concurrentFiles);
  // One mapping thread for every flow, stopped after the intakes (started before them).
  const mapThread = createMapThread({ logger: deps.logger.child({ component: 'mapping thread' }) });
  await lifecycle.start({ name: 'mapping thread', start: async () => undefined, stop: () => mapThread.close() });
  for (const flow of config.flows) {
    const intake = createIntake({
      db: deps.db,
      flow,
      sourceSystem: config.platform.sourceSystem,
      mapping: deps.mappings.get(flow.name)!,
      logger: deps.logger,
      clock: deps.clock,
      durable: deps.durable,
      onRecorded: (count) => {
        metrics.requestsRecorded.inc({ flow: flow.name }, count);
        dispatcher.wake();
      },
      metrics,
      fileGate,
      mapThread,
    });
    await lifecycle.start(intake);
    intakes.set(flow.name, intake);
  }
  return intakes;
}
