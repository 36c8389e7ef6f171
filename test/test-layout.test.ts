/**
 * One helpers convention (docs/development.md, "Where a test lives"): a TypeScript file under
 * `test/` is a test, a helper in `test/helpers/`, part of the fuzz harness in `test/fuzz/`, or the
 * script beside the fixtures it wrote in `test/fixtures/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/mapping-fixtures.js';

const TEST = path.join(ROOT, 'test');

function typeScriptFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(TEST, path.join(entry.parentPath, entry.name)));
}

describe('the test folder', () => {
  it('keeps every helper in test/helpers/: no loose helper beside the tests', () => {
    const loose = typeScriptFiles(TEST).filter(
      (file) => !/\.test\.ts$/.test(file) && !['helpers', 'fuzz', 'fixtures'].some((folder) => file.startsWith(`${folder}${path.sep}`)),
    );
    expect(loose).toEqual([]);
  });
});
