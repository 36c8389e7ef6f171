/**
 * docs/troubleshooting.md explains every code of the catalogue (`src/errors.ts`): one row per code,
 * with what it means and what to do, and no row for a code the connector cannot report.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { readPage, withoutFences } from '../helpers/markdown.js';

/** The rows of the table, `| \`CODE\` | meaning | what to do |`, by code. */
function rowsByCode(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of withoutFences(markdown).split('\n')) {
    const match = /^\| `([A-Z][A-Z_]+)` \|(.*)\|\s*$/.exec(line);
    if (!match) continue;
    const cells = match[2]!.split(/(?<!\\)\|/).map((cell) => cell.trim());
    rows.set(match[1]!, [...(rows.get(match[1]!) ?? []), ...cells]);
  }
  return rows;
}

describe('docs/troubleshooting.md', () => {
  const rows = rowsByCode(readPage('docs/troubleshooting.md'));

  it('has a row for every error code, with a meaning and what to do', () => {
    const incomplete = Object.keys(ERROR_CODES).filter((code) => {
      const cells = rows.get(code);
      return cells === undefined || cells.length !== 2 || cells.some((cell) => cell.length < 10);
    });
    expect(incomplete).toEqual([]);
  });

  it('has one row per code, and none for a code the connector does not have', () => {
    expect([...rows.keys()].filter((code) => !(code in ERROR_CODES))).toEqual([]);
    expect(rows.size).toBe(Object.keys(ERROR_CODES).length);
  });
});
