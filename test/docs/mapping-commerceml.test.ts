/**
 * docs/mapping-commerceml.md documents the CommerceML preset field by field: its table has a row
 * for every field the preset reads and no other, and where a row spells its path out in full, it
 * is the preset's path (`BUYER` standing for the buyer party, a line's paths under `Товар/`).
 */
import { describe, expect, it } from 'vitest';
import { COMMERCEML_PRESET } from '../../src/config/presets/commerceml.js';
import { readPage } from '../helpers/markdown.js';

const BUYER = "Контрагенты/Контрагент[Роль='Покупатель']";

/** The "Field by field" table: target field → its path cell, as written. */
function documentedFields(): Map<string, string> {
  const page = readPage('docs/mapping-commerceml.md');
  const section = page.slice(page.indexOf('## Field by field'), page.indexOf('## ', page.indexOf('## Field by field') + 3));
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const field = /^`([\w.]+)`/.exec(cells[1] ?? '')?.[1];
    if (field) rows.set(field, cells[2]!);
  }
  return rows;
}

/** A path cell written out in full, as the preset holds it; null for a cell that describes its paths in words. */
function spelledOut(cell: string): string | null {
  const code = /^`([^`]+)`$/.exec(cell.replaceAll('\\|', '|'))?.[1];
  if (code === undefined || code.includes('…')) return null;
  return code.replaceAll('BUYER', BUYER);
}

describe('docs/mapping-commerceml.md', () => {
  const documented = documentedFields();
  const preset = {
    ...Object.fromEntries(Object.entries(COMMERCEML_PRESET.request)),
    ...Object.fromEntries(Object.entries(COMMERCEML_PRESET.items).map(([key, spec]) => [`items.${key}`, spec])),
  } as Record<string, { path?: string; counter?: boolean }>;

  it('has a row for every field the preset reads, and no other', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(preset).sort());
  });

  it("spells each path it writes out in full as the preset's own", () => {
    const compared: string[] = [];
    for (const [field, cell] of documented) {
      const path = spelledOut(cell);
      if (path === null) continue;
      const expected = field.startsWith('items.')
        ? preset[field]!.path!.split(' | ')
            .map((p) => `Товар/${p}`)
            .join(' | ')
        : preset[field]!.path;
      expect(path, field).toBe(expected);
      compared.push(field);
    }
    // Most rows write their paths out; the few that describe a pattern are checked by the mapping tests.
    expect(compared.length).toBeGreaterThanOrEqual(8);
  });
});
