/** The daemon's public face: `startDaemon` and what it takes and gives (for `cli.ts`, `signals.ts`, tests and benchmarks). */
export type { ReloadResult } from './reload.js';
export { startDaemon, type Daemon, type DaemonOptions, type StopOutcome } from './start-daemon.js';
