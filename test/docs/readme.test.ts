/**
 * The README is the newcomer's page: short, with the two commands, the demo's walk-through as
 * `npm start` really prints it, the interface decisions in one line each, and a way to every page
 * of the manual.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { demoHints } from '../../src/sandbox/demo-hints.js';
import { PAGES, REPO, linksOf, readPage, withoutFences } from '../helpers/markdown.js';

const readme = readPage('README.md');

describe('README.md', () => {
  it('stays short: at most 260 lines (the manual is in docs/)', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(260);
  });

  it('keeps the newcomer commands', () => {
    for (const command of ['npm ci', 'npm test', 'npm start']) expect(readme).toContain(command);
  });

  it('links every page of docs/', () => {
    const linked = new Set(linksOf(readme).map((link) => link.target.split('#')[0]));
    expect(PAGES.filter((page) => page.startsWith('docs/') && !linked.has(page))).toEqual([]);
  });

  it('lists the interface decisions under "Assumptions" and links their full table', () => {
    const section = withoutFences(readme)
      .split(/^## /m)
      .find((part) => part.startsWith('Assumptions\n'));
    expect(section).toBeDefined();
    expect(section).toContain('](docs/assumptions.md)');
    expect(section!.split('\n').filter((line) => line.startsWith('- ')).length).toBeGreaterThanOrEqual(15);
  });

  describe('the demo', () => {
    // The demo's paths are relative to the checkout, as `npm start` runs it there.
    const cwd = process.cwd();
    beforeAll(() => process.chdir(REPO));
    afterAll(() => process.chdir(cwd));

    it('shows what `npm start` prints, word for word', () => {
      const config = loadConfig(path.join(REPO, 'config/demo.yaml'), {});
      const admin = `http://127.0.0.1:${config.metrics.port}`;
      const printed = demoHints(config, {
        sandbox: `http://127.0.0.1:${config.sandbox.port}`,
        webhook: `http://${config.webhook!.host}:${config.webhook!.port}${config.webhook!.path}`,
        admin,
        console: `${admin}/`,
      }).trim();
      const block = /```\n(procurement-connector demo is running[\s\S]*?)\n```/.exec(readme)?.[1];
      expect(block).toBe(printed);
    });
  });
});
