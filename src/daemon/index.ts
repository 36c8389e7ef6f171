/** The daemon's public face: `startDaemon` and what it takes and gives (for `cli.ts`, `signals.ts`, tests and benchmarks). */
export { startDaemon, type Daemon, type DaemonOptions, type ReloadResult, type StopOutcome } from './start-daemon.js';
