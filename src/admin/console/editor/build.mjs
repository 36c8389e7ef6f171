// @ts-check
/**
 * Bundles the mapping page's editor (main.ts and CodeMirror, the `yaml` parser, the JSON Schema
 * validator) into one minified script, `assets/editor.js`, which the console serves from its own
 * origin like its other assets; and writes `assets/editor.licenses.txt` beside it, the licenses
 * of the packages the bundle holds (they are devDependencies, so the release's
 * THIRD-PARTY-NOTICES, made from the production packages, does not list them).
 *
 *   node src/admin/console/editor/build.mjs     (npm run build:editor; build:assets and pretest run it)
 *
 * The bundle is generated, not committed: `npm run build`, the release build (build:assets) and
 * `npm test` (pretest) make it, with esbuild, a devDependency needed at build time only. Files
 * are written under a temporary name and renamed, so a daemon starting while a build runs reads
 * the old bundle or the new one, never half of one.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../../..');
export const ASSETS = path.resolve(HERE, '../assets');
const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

/**
 * The MIT License's text (SPDX), for a package that declares MIT but publishes no license file
 * (@cfworker/json-schema): its notice names the package's declared author and repository instead.
 */
const MIT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the
following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO
EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR
THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/** Write `text` to `file` through a temporary file and a rename. */
function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/** The package folder (`node_modules/@codemirror/view`) an input of the bundle comes from, if any. */
function packageOf(input) {
  const match = /^(.*node_modules\/(@[^/]+\/[^/]+|[^/]+))\//.exec(input);
  return match ? match[1] : undefined;
}

/** `name version (license)` and the license texts of each package folder, by name. */
function notices(folders) {
  const parts = [];
  for (const folder of [...folders].sort()) {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8'));
    const texts = fs
      .readdirSync(path.join(ROOT, folder))
      .filter((name) => LICENSE_FILE.test(name))
      .sort()
      .map((name) => fs.readFileSync(path.join(ROOT, folder, name), 'utf8').trim());
    if (texts.length === 0 && manifest.license === 'MIT') {
      const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
      const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
      texts.push(`The package publishes no license file; it declares MIT, author ${author}, repository ${repository}.\n\nMIT License\n\n${MIT}`);
    }
    if (texts.length === 0) throw new Error(`${manifest.name} has no license file: the bundle must not ship it without one`);
    parts.push({ name: manifest.name, version: manifest.version, license: manifest.license, texts });
  }
  return parts;
}

/**
 * Bundle the editor into `outDir` (default: the console's assets folder).
 * @returns {Promise<{ file: string, bytes: number, packages: string[] }>}
 */
export async function buildEditor(outDir = ASSETS) {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(HERE, 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    // The browsers an operator's desktop has; CodeMirror 6 needs nothing older.
    target: ['chrome109', 'firefox115', 'safari16'],
    legalComments: 'none',
    metafile: true,
    write: false,
    outfile: path.join(outDir, 'editor.js'),
    logLevel: 'warning',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild wrote nothing');
  const packages = notices(
    new Set(
      Object.keys(result.metafile.inputs)
        .map(packageOf)
        .filter((folder) => folder !== undefined),
    ),
  );
  const banner =
    '/*! The mapping editor of procurement-connector, built by src/admin/console/editor/build.mjs. Bundles ' +
    packages.map((p) => `${p.name} ${p.version} (${p.license})`).join(', ') +
    '; their licenses are in editor.licenses.txt. */\n';
  const licenses = packages.map((p) => `${p.name} ${p.version} (${p.license})\n\n${p.texts.join('\n\n')}\n`).join(`\n${'-'.repeat(78)}\n\n`);
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'editor.js');
  writeAtomically(file, banner + output.text);
  writeAtomically(path.join(outDir, 'editor.licenses.txt'), `Packages bundled into editor.js\n\n${licenses}`);
  return { file, bytes: Buffer.byteLength(banner + output.text), packages: packages.map((p) => `${p.name}@${p.version}`) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { file, bytes, packages } = await buildEditor(process.argv[2] ? path.resolve(process.argv[2]) : ASSETS);
  console.log(`${path.relative(process.cwd(), file)}: ${(bytes / 1024).toFixed(0)} KiB, ${packages.length} packages`);
}
