/**
 * THIRD-PARTY-NOTICES: every production package of the lockfile with its license text as installed,
 * no dev package, and a build that fails rather than ship a package without its license.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/temp-dir.js';
import { collectNotices, formatNotices } from '../../packaging/third-party-notices.js';

/** A package folder in the tree, with its package.json and the given files. */
function install(tree: string, location: string, name: string, files: Record<string, string>): void {
  const dir = path.join(tree, location);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
}

/** A tree as `npm ci --omit=dev` leaves it: prod packages installed, dev and unfit optional ones not. */
function productionTree(tree: string): void {
  fs.writeFileSync(path.join(tree, 'package.json'), JSON.stringify({ name: 'procurement-connector', version: '9.9.9' }));
  const lock = {
    lockfileVersion: 3,
    packages: {
      '': { name: 'procurement-connector', version: '9.9.9' },
      'node_modules/alpha': { version: '1.0.0', license: 'MIT' },
      'node_modules/beta': { version: '2.0.0', license: 'ISC', dev: true },
      'node_modules/gamma': { version: '3.0.0', license: 'MIT', optional: true },
      'node_modules/delta': { version: '4.0.0', license: 'Apache-2.0' },
      'node_modules/delta/node_modules/alpha': { version: '0.5.0', license: 'MIT' },
    },
  };
  fs.writeFileSync(path.join(tree, 'package-lock.json'), JSON.stringify(lock));
  install(tree, 'node_modules/alpha', 'alpha', { LICENSE: 'alpha license text', 'index.js': '' });
  install(tree, 'node_modules/delta', 'delta', { 'LICENSE.txt': 'delta license text', NOTICE: 'delta notice text' });
  install(tree, 'node_modules/delta/node_modules/alpha', 'alpha', { 'license.md': 'old alpha license text' });
}

describe('collectNotices', () => {
  it('lists each installed production package with its license files, and no dev package', async () => {
    await withTempDir((tree) => {
      productionTree(tree);
      const notices = collectNotices(tree);
      expect(notices.map((n) => `${n.name}@${n.version} ${n.license}`)).toEqual(['alpha@0.5.0 MIT', 'alpha@1.0.0 MIT', 'delta@4.0.0 Apache-2.0']);
      expect(notices.find((n) => n.name === 'delta')!.texts).toEqual([
        { file: 'LICENSE.txt', text: 'delta license text' },
        { file: 'NOTICE', text: 'delta notice text' },
      ]);
    });
  });

  it('fails when a production package of the lockfile is not installed', async () => {
    await withTempDir((tree) => {
      productionTree(tree);
      fs.rmSync(path.join(tree, 'node_modules/alpha'), { recursive: true });
      expect(() => collectNotices(tree)).toThrow('node_modules/alpha: named by the lockfile but not installed');
    });
  });

  it('fails when a package has no license text', async () => {
    await withTempDir((tree) => {
      productionTree(tree);
      fs.rmSync(path.join(tree, 'node_modules/alpha/LICENSE'));
      expect(() => collectNotices(tree)).toThrow('node_modules/alpha: no LICENSE, COPYING or NOTICE file');
    });
  });

  it('takes the text kept in packaging/licenses/<name>/ for a package that publishes none', async () => {
    await withTempDir((tree) => {
      productionTree(tree);
      fs.rmSync(path.join(tree, 'node_modules/alpha/LICENSE'));
      const kept = path.join(tree, 'kept');
      fs.mkdirSync(path.join(kept, 'alpha'), { recursive: true });
      fs.writeFileSync(path.join(kept, 'alpha', 'LICENSE'), 'ISC, kept for alpha\n');
      const alpha = collectNotices(tree, kept).find((n) => n.location === 'node_modules/alpha')!;
      expect(alpha.texts).toEqual([{ file: 'LICENSE (packaging/licenses/alpha, from its repository)', text: 'ISC, kept for alpha' }]);
    });
  });

  it('finds a text for every production package of this repository', () => {
    expect(() => collectNotices(path.resolve('.'))).not.toThrow();
  });
});

describe('formatNotices', () => {
  it('names the product, the runtime with its license, and each package with its texts', async () => {
    await withTempDir((tree) => {
      productionTree(tree);
      const text = formatNotices(
        { name: 'procurement-connector', version: '9.9.9' },
        { version: '20.0.0', license: 'node license text\n' },
        collectNotices(tree),
      );
      expect(text).toContain('THIRD-PARTY NOTICES: procurement-connector 9.9.9');
      expect(text).toMatch(/^Node\.js +20\.0\.0: MIT/m);
      expect(text).toMatch(/^delta 4\.0\.0 +Apache-2\.0$/m);
      for (const expected of ['node license text', 'alpha license text', 'old alpha license text', 'delta license text', 'delta notice text']) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain('beta');
    });
  });
});
