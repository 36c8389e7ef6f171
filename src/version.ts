/**
 * What `procurement-connector --version` prints: the version from package.json, with the commit a
 * release package (or a from-source install) was built from, e.g. `0.1.0 (commit 1a2b3c4)`.
 *
 * The build writes `build-info.json` next to package.json (packaging/build-info.sh); a checkout has
 * none and says `(source)`. Reading git at run time would need git on the server and a `.git`
 * folder, which an installed tree has neither of.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The file the build writes next to package.json. */
export const BUILD_INFO_FILE = 'build-info.json';

/** Contents of build-info.json. */
export interface BuildInfo {
  /** Abbreviated commit hash the tree was built from. */
  commit: string;
  /** True when the working tree had uncommitted changes at build time. */
  modified: boolean;
}

/**
 * The version line for the tree this module sits in. `moduleDir` is where to start looking for
 * package.json upwards (dist/src/ in a build, src/ under the test runner).
 */
export function describeVersion(moduleDir: string = path.dirname(fileURLToPath(import.meta.url))): string {
  const root = findPackageRoot(moduleDir);
  if (root === null) return 'unknown (no package.json above the program)';
  const version = readJson(path.join(root, 'package.json'))?.version;
  const build = parseBuildInfo(readJson(path.join(root, BUILD_INFO_FILE)));
  return `${typeof version === 'string' ? version : 'unknown'} ${formatBuild(build)}`;
}

/** `(commit 1a2b3c4)`, `(commit 1a2b3c4 with local changes)`, or `(source)` without build info. */
export function formatBuild(build: BuildInfo | null): string {
  if (build === null) return '(source)';
  return build.modified ? `(commit ${build.commit} with local changes)` : `(commit ${build.commit})`;
}

/** A well-formed BuildInfo, or null: a hand-edited or truncated file must not print garbage. */
export function parseBuildInfo(value: Record<string, unknown> | null): BuildInfo | null {
  if (value === null) return null;
  const { commit, modified } = value;
  if (typeof commit !== 'string' || !/^[0-9a-f]{7,40}$/.test(commit)) return null;
  return { commit, modified: modified === true };
}

/** The nearest folder at or above `start` that holds a package.json (at most three levels up). */
function findPackageRoot(start: string): string | null {
  let dir = start;
  for (let level = 0; level <= 3; level += 1) {
    if (readJson(path.join(dir, 'package.json')) !== null) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

function readJson(file: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
