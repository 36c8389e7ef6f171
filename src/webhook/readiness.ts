/** `/readyz`: the store takes writes and the export folders can be written to. */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../store/open-store.js';
import { describeError } from '../errors.js';

export interface ReadinessReport {
  ready: boolean;
  /** Why not ready, one line each; empty when ready. */
  reasons: string[];
}

/** Check the store (open, writable, schema present) and that each folder (or its parent, if missing) is writable. */
export function checkReadiness(db: Db, folders: readonly string[]): ReadinessReport {
  const reasons: string[] = [];
  try {
    if (!db.open) reasons.push('store: closed');
    else if (db.readonly) reasons.push('store: opened read-only');
    else {
      db.prepare('SELECT 1 FROM events LIMIT 1').get();
      if (db.name !== ':memory:' && db.name !== '') fs.accessSync(path.dirname(db.name), fs.constants.W_OK);
    }
  } catch (error) {
    reasons.push(`store: ${describeError(error)}`);
  }
  for (const folder of folders) {
    try {
      const existing = nearestExisting(folder);
      if (!fs.statSync(existing).isDirectory()) throw Object.assign(new Error(`${existing} is not a folder`), { code: 'ENOTDIR' });
      fs.accessSync(existing, fs.constants.W_OK);
    } catch (error) {
      reasons.push(`folder ${folder}: ${(error as NodeJS.ErrnoException).code ?? describeError(error)}`);
    }
  }
  return { ready: reasons.length === 0, reasons };
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
