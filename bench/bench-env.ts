/** What every benchmark case needs: repository paths, a temp folder, a flow config, polling waits. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flowSchema, type FlowConfig, type FlowIntakeConfig } from '../src/config/flow-schema.js';

/** The repository root, from `dist/bench/*.js` (compiled) or `bench/*.ts`. */
export const REPO_ROOT = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(path.dirname(here)) === 'dist' ? path.resolve(here, '../..') : path.resolve(here, '..');
})();

export const MAPPING_1C = path.join(REPO_ROOT, 'config/mappings/1c-requests.yaml');
export const FLOW_NAME = 'bench';
export const SOURCE_SYSTEM = 'bench';

/** A fresh temp folder for `fn`, removed afterwards whatever happens. */
export async function withTempRoot<T>(fn: (root: string) => Promise<T>): Promise<T> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-bench-'));
  try {
    return await fn(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** A requests flow reading the 1C mapping, with the given intake settings. */
export function benchFlow(root: string, intake: Partial<FlowIntakeConfig>): FlowConfig {
  return flowSchema.parse({
    name: FLOW_NAME,
    kind: 'requests',
    inbox: path.join(root, 'inbox'),
    mapping: MAPPING_1C,
    results: path.join(root, 'results'),
    intake,
  });
}

/** Poll `check` until it returns true; throws after `timeoutMs` with `what` in the message. */
export async function waitFor(what: string, check: () => boolean, timeoutMs: number, intervalMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A promise with its resolve exposed (for callbacks that signal "done"). */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
