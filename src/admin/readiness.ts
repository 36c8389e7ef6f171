/** `/readyz`: the store takes writes and the export folders can be written to. */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../store/open-store.js';
import { storeProblem } from '../store/probe.js';

export interface ReadinessReport {
  ready: boolean;
  /** Why not ready, one line each; empty when ready. */
  reasons: string[];
}

/** Check the store (open, writable, schema present) and that each folder (or its parent, if missing) is writable. */
export function checkReadiness(db: Db, folders: readonly string[]): ReadinessReport {
  const reasons: string[] = [];
  const store = storeProblem(db);
  if (store !== null) reasons.push(`store: ${store}`);
  for (const folder of folders) {
    const problem = folderProblem(folder);
    if (problem !== null) reasons.push(`folder ${folder}: ${problem}`);
  }
  return { ready: reasons.length === 0, reasons };
}

/** Why files cannot be written into `folder` (or, while it is missing, into the closest ancestor the exporter would create it in), or null. */
function folderProblem(folder: string): string | null {
  const existing = nearestExisting(folder);
  try {
    if (!fs.statSync(existing).isDirectory()) return 'ENOTDIR';
    fs.accessSync(existing, fs.constants.W_OK);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

/** The folder itself, or the closest ancestor that exists (the exporter creates what is missing). */
function nearestExisting(folder: string): string {
  let current = path.resolve(folder);
  while (!fs.existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return current;
}
