/**
 * THIRD-PARTY-NOTICES of a release package, generated from the lockfile: every production package
 * the lockfile names (dev packages left out, an optional one only when it was installed), with its
 * version, its declared license and the texts of its LICENSE/COPYING/NOTICE files as installed in
 * the package's node_modules, plus the bundled Node.js runtime's own LICENSE.
 *
 *   node dist/packaging/third-party-notices.js <tree> <node-license-file> <node-version> [<kept-licenses-dir>] > THIRD-PARTY-NOTICES
 *
 * <tree> holds package.json, package-lock.json and node_modules/. A production package that the
 * lockfile names but the tree lacks, or one without any license text, fails the build: shipping
 * code without its license is what this file exists to prevent. A package that publishes no license
 * file of its own (saxes) gets the text kept for it in `packaging/licenses/<name>/`, copied from
 * its repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One third-party package as it is shipped. */
export interface Notice {
  name: string;
  version: string;
  /** SPDX expression from the lockfile (or the package's package.json). */
  license: string;
  /** Where it sits in the tree, e.g. `node_modules/pino`. */
  location: string;
  /** License, copying and notice files: name and text. */
  texts: { file: string; text: string }[];
}

interface LockEntry {
  version?: string;
  license?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  link?: boolean;
}

const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

/** `packaging/licenses/` beside this script, from the source tree or from `dist/packaging/`. */
const KEPT_LICENSES = [fileURLToPath(new URL('./licenses', import.meta.url)), fileURLToPath(new URL('../../packaging/licenses', import.meta.url))].find((dir) =>
  fs.existsSync(dir),
);

function licenseTexts(dir: string): { file: string; text: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => LICENSE_FILE.test(file) && fs.statSync(path.join(dir, file)).isFile())
    .sort()
    .map((file) => ({ file, text: fs.readFileSync(path.join(dir, file), 'utf8').trimEnd() }));
}

/** The notices of every production package of `tree`'s lockfile, sorted by name and version. */
export function collectNotices(tree: string, keptLicenses: string | undefined = KEPT_LICENSES): Notice[] {
  const lock = JSON.parse(fs.readFileSync(path.join(tree, 'package-lock.json'), 'utf8')) as { packages?: Record<string, LockEntry> };
  const notices = new Map<string, Notice>();
  const problems: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages ?? {})) {
    if (location === '' || entry.dev === true || entry.link === true) continue;
    const dir = path.join(tree, location);
    if (!fs.existsSync(path.join(dir, 'package.json'))) {
      // Optional packages are skipped when they do not fit this platform; anything else missing
      // means the tree was not installed from this lockfile.
      if (entry.optional !== true && entry.devOptional !== true) problems.push(`${location}: named by the lockfile but not installed`);
      continue;
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string; license?: unknown };
    const name = manifest.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const version = entry.version ?? manifest.version ?? 'unknown';
    let texts = licenseTexts(dir);
    if (texts.length === 0 && keptLicenses !== undefined) {
      texts = licenseTexts(path.join(keptLicenses, name)).map((t) => ({ file: `${t.file} (packaging/licenses/${name}, from its repository)`, text: t.text }));
    }
    if (texts.length === 0) problems.push(`${location}: no LICENSE, COPYING or NOTICE file`);
    const license = entry.license ?? declaredLicense(manifest.license) ?? 'UNKNOWN';
    const key = `${name}@${version}`;
    if (!notices.has(key)) notices.set(key, { name, version, license, location, texts });
  }
  if (problems.length > 0) throw new Error(`third-party notices of ${tree}:\n  ${problems.join('\n  ')}`);
  return [...notices.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The file's text: a summary table, then the runtime's license, then each package's texts. */
export function formatNotices(product: { name: string; version: string }, runtime: { version: string; license: string }, notices: Notice[]): string {
  const rule = '-'.repeat(79);
  const width = Math.max(...notices.map((n) => `${n.name} ${n.version}`.length), 20);
  return [
    `THIRD-PARTY NOTICES: ${product.name} ${product.version}`,
    '',
    'This package includes the Node.js runtime (node/) and the following npm packages',
    '(node_modules/), each under its own license, reproduced below.',
    '',
    `${'Node.js'.padEnd(width)}  ${runtime.version}: MIT and the licenses of its bundled parts`,
    ...notices.map((n) => `${`${n.name} ${n.version}`.padEnd(width)}  ${n.license}`),
    '',
    rule,
    `Node.js ${runtime.version} (node/LICENSE)`,
    rule,
    '',
    runtime.license.trimEnd(),
    ...notices.flatMap((n) => [
      '',
      rule,
      `${n.name} ${n.version} (${n.location}): ${n.license}`,
      rule,
      ...n.texts.flatMap((t) => ['', `${t.file}:`, '', t.text]),
    ]),
    '',
  ].join('\n');
}

function declaredLicense(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string') return (value as { type: string }).type;
  return undefined;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [tree, runtimeLicense, runtimeVersion, kept] = process.argv.slice(2);
  if (tree === undefined || runtimeLicense === undefined || runtimeVersion === undefined) {
    process.stderr.write('usage: third-party-notices <tree> <node-license-file> <node-version> [<kept-licenses-dir>]\n');
    process.exit(2);
  }
  const product = JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8')) as { name: string; version: string };
  process.stdout.write(
    formatNotices(product, { version: runtimeVersion, license: fs.readFileSync(runtimeLicense, 'utf8') }, collectNotices(tree, kept ?? KEPT_LICENSES)),
  );
}
