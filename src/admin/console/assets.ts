/**
 * The console's stylesheet, scripts and icon, shipped in the package and served from its own origin
 * (no third-party one). They sit in `assets/` beside this module; `npm run build` copies them next
 * to the compiled module. All are written by hand but the mapping editor, `editor.js`, which
 * `npm run build:editor` bundles from `editor/` (CodeMirror and the schema checks) with the
 * licenses of what it bundles in `editor.licenses.txt`. Read once; served with an ETag and revalidated.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  body: string;
  contentType: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'mapping.js': 'text/javascript; charset=utf-8',
  'editor.js': 'text/javascript; charset=utf-8',
  'editor.licenses.txt': 'text/plain; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

export const ASSET_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');

/** Read the assets; a missing file is left out (and named in `missing`), so the pages still work without it. */
export function loadAssets(dir = ASSET_DIR): { assets: Map<string, Asset>; missing: string[] } {
  const assets = new Map<string, Asset>();
  const missing: string[] = [];
  for (const [name, contentType] of Object.entries(TYPES)) {
    try {
      const body = fs.readFileSync(path.join(dir, name), 'utf8');
      assets.set(name, { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
    } catch {
      missing.push(path.join(dir, name));
    }
  }
  return { assets, missing };
}
