/**
 * The manual's pictures are the script's (`npm run screenshots`, packaging/take-screenshots.ts): every
 * picture the README and the guides cite is one the script takes, every picture in docs/images/ is
 * one of them, and the script, run here against the demo in both languages, takes each of them
 * with the page showing what the shot is of.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageNames, takeScreenshots } from '../../packaging/take-screenshots.js';
import { withTempDir } from '../helpers/temp-dir.js';
import { REPO } from '../helpers/with-daemon.js';

const IMAGES = path.join(REPO, 'docs/images');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(file);
    return entry.name.endsWith('.md') ? [file] : [];
  });
}

/** `images/console-file.png` in `![…](images/console-file.png)` or `[…](docs/images/…)`, by the file that cites it. */
function citedImages(): { file: string; image: string }[] {
  return [path.join(REPO, 'README.md'), ...markdownFiles(path.join(REPO, 'docs'))].flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/\(((?:docs\/)?images\/[^)\s]+)\)/g)].map((match) => ({
      file: path.relative(REPO, file),
      image: path.basename(match[1]!),
    })),
  );
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the manual’s pictures', () => {
  it('cites only pictures the script takes, and docs/images holds nothing else', () => {
    const taken = new Set(imageNames());
    const cited = citedImages();
    expect(cited.length).toBeGreaterThan(3);
    expect(cited.filter(({ image }) => !taken.has(image))).toEqual([]);
    const present = fs.readdirSync(IMAGES);
    expect(present.filter((name) => !taken.has(name))).toEqual([]);
    expect([...taken].filter((name) => !present.includes(name))).toEqual([]);
  });

  it('are taken from the running demo, in English and Russian, each page showing what it is of', { timeout: 400_000 }, async () => {
    await withTempDir(async (out) => {
      const written = await takeScreenshots({ out });
      expect(written).toEqual(imageNames());
      for (const name of written) {
        const { width, height } = pngSize(fs.readFileSync(path.join(out, name)));
        expect(width, name).toBe(1360);
        expect(height, name).toBeGreaterThanOrEqual(900);
      }
      // Not the same picture twice: each language draws its own words.
      expect(fs.readFileSync(path.join(out, 'console-overview.png')).equals(fs.readFileSync(path.join(out, 'console-overview-ru.png')))).toBe(false);
    });
  });
});
