/**
 * `--version`: package.json's version with the commit from the build's build-info.json, found from
 * the module's folder upwards as in an installed tree (dist/src/ below the root).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withTempDir } from './helpers/temp-dir.js';
import { BUILD_INFO_FILE, describeVersion, parseBuildInfo } from '../src/version.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** An installed tree: package.json at the root, the program two levels down. */
function tree(dir: string, buildInfo?: string): string {
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'procurement-connector', version: '1.2.3' }));
  if (buildInfo !== undefined) fs.writeFileSync(path.join(dir, BUILD_INFO_FILE), buildInfo);
  const moduleDir = path.join(dir, 'dist', 'src');
  fs.mkdirSync(moduleDir, { recursive: true });
  return moduleDir;
}

describe('describeVersion', () => {
  it('prints the version and the commit a build was made from', async () => {
    await withTempDir((dir) => {
      expect(describeVersion(tree(dir, JSON.stringify({ commit: '1a2b3c4', modified: false })))).toBe('1.2.3 (commit 1a2b3c4)');
    });
  });

  it('says when the build had local changes', async () => {
    await withTempDir((dir) => {
      expect(describeVersion(tree(dir, JSON.stringify({ commit: '1a2b3c4', modified: true })))).toBe('1.2.3 (commit 1a2b3c4 with local changes)');
    });
  });

  it('says (source) without build info, and for a build-info.json that is not what the build writes', async () => {
    await withTempDir((dir) => {
      expect(describeVersion(tree(dir))).toBe('1.2.3 (source)');
      fs.writeFileSync(path.join(dir, BUILD_INFO_FILE), '{"commit": "abc');
      expect(describeVersion(path.join(dir, 'dist', 'src'))).toBe('1.2.3 (source)');
      fs.writeFileSync(path.join(dir, BUILD_INFO_FILE), JSON.stringify({ commit: '1a2b3c4\n\u001b[2J' }));
      expect(describeVersion(path.join(dir, 'dist', 'src'))).toBe('1.2.3 (source)');
    });
  });

  it("reads this checkout's package.json from src/", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(describeVersion(path.join(ROOT, 'src'))).toBe(`${version} (source)`);
  });
});

describe('parseBuildInfo', () => {
  it.each([
    [{ commit: 'deadbeef' }, { commit: 'deadbeef', modified: false }],
    [
      { commit: 'deadbeef', modified: 'yes' },
      { commit: 'deadbeef', modified: false },
    ],
    [{ commit: 'DEADBEEF' }, null],
    [{ commit: 'abc' }, null],
    [{ commit: 42 }, null],
    [{}, null],
    [null, null],
  ])('%j -> %j', (value, expected) => {
    expect(parseBuildInfo(value as Record<string, unknown> | null)).toEqual(expected);
  });
});
