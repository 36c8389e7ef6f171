/** The daemon's public face: `startDaemon` and what it takes and gives (for `cli.ts`, `signals.ts`, tests and benchmarks). */
export type { ReloadResult } from './reload.js';
export { startDaemon, type Daemon, type DaemonOptions } from './start-daemon.js';
export type { StopOutcome } from './stop-bound.js';
