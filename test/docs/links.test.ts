/**
 * Every relative link of the README and the manual leads somewhere: the file (or folder) exists,
 * and an anchor names a heading of the page it points at, as GitHub makes anchors. The manual is
 * split across pages and moves with its readers' tasks; a link left behind by a move fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES, REPO, anchorsOf, isExternal, linksOf, readPage, slugOf } from '../helpers/markdown.js';

describe.each(PAGES)('%s', (page) => {
  const links = linksOf(readPage(page)).filter((link) => !isExternal(link.target));

  it('links only to files that exist', () => {
    const missing = links.filter((link) => {
      const file = link.target.split('#')[0]!;
      return file !== '' && !fs.existsSync(path.join(REPO, path.dirname(page), decodeURIComponent(file)));
    });
    expect(missing.map((link) => `line ${link.line}: ${link.target}`)).toEqual([]);
  });

  it("links only to headings the page has (GitHub's anchors)", () => {
    const broken = links.filter((link) => {
      const [file, anchor] = link.target.split('#') as [string, string | undefined];
      if (anchor === undefined) return false;
      const target = file === '' ? page : path.join(path.dirname(page), decodeURIComponent(file));
      if (!target.endsWith('.md') || !fs.existsSync(path.join(REPO, target))) return true;
      return !anchorsOf(readPage(target)).has(decodeURIComponent(anchor));
    });
    expect(broken.map((link) => `line ${link.line}: ${link.target}`)).toEqual([]);
  });
});

describe('the link reader', () => {
  it('finds links whose text runs over lines or holds code, and none inside code', () => {
    const text = [
      'See [Overriding a',
      'field](#overriding-a-field) and [`a.md`](a.md#x).',
      '`[not](a-link)`',
      '```',
      '[nor](this)',
      '```',
      '![img](images/x.png)',
    ].join('\n');
    expect(linksOf(text).map((link) => [link.target, link.line])).toEqual([
      ['#overriding-a-field', 1],
      ['a.md#x', 2],
      ['images/x.png', 7],
    ]);
  });

  it('makes the anchors GitHub makes', () => {
    expect(slugOf('Start here: `mapping suggest`')).toBe('start-here-mapping-suggest');
    expect(slugOf('`acknowledgements:` (what is written back per request)')).toBe('acknowledgements-what-is-written-back-per-request');
    expect(slugOf('`schedules`, `metrics`, `console`, `sandbox`')).toBe('schedules-metrics-console-sandbox');
    expect(slugOf('`flows[]`')).toBe('flows');
    expect(slugOf('Install from source (systemd)')).toBe('install-from-source-systemd');
    expect(slugOf('Reports: blank rows, totals, fill-down (CSV and XLSX)')).toBe('reports-blank-rows-totals-fill-down-csv-and-xlsx');
    expect(slugOf('Что делать — коды')).toBe('что-делать--коды');
    expect([...anchorsOf('# A\n## A\n```\n# B\n```\n### A')]).toEqual(['a', 'a-1', 'a-2']);
  });
});
