/**
 * Which sheet a mapping reads (`xlsx.sheet`): a name (exact first, then ignoring case, as Excel
 * itself compares sheet names), or a position from 1 in workbook order, or by default the first
 * sheet.
 *
 * Positions count every sheet the workbook lists, hidden ones included, in the order of
 * `xl/workbook.xml` (the tab order): a hidden first sheet is position 1 and the default. The user
 * does not see it, but skipping it would make positions depend on a visibility flag someone can
 * toggle without noticing; the reader's label says `(hidden)` so a message about it explains itself.
 */
import type { XlsxOptions } from '../../../config/mapping-schema.js';
import { ConnectorError } from '../../../errors.js';
import type { SheetEntry } from './workbook-parts.js';

/** Sheets named in a message before it says "and N more". */
const NAMED_IN_MESSAGE = 20;

export function chooseSheet(sheets: readonly SheetEntry[], wanted: XlsxOptions['sheet']): SheetEntry {
  if (sheets.length === 0) throw new ConnectorError('FILE_UNREADABLE', 'is a workbook without sheets', { text: { key: 'workbookNoSheets' } });
  let chosen: SheetEntry | undefined;
  if (wanted === undefined) chosen = sheets[0];
  else if (typeof wanted === 'number') chosen = sheets[wanted - 1];
  else {
    const lower = wanted.toLowerCase();
    chosen = sheets.find((sheet) => sheet.name === wanted) ?? sheets.find((sheet) => sheet.name.toLowerCase() === lower);
  }
  if (chosen === undefined) {
    const asked = typeof wanted === 'number' ? `sheet ${wanted}` : `sheet "${wanted}"`;
    throw new ConnectorError('FILE_UNREADABLE', `has no ${asked} (xlsx.sheet): its sheets are ${listSheets(sheets)}`, {
      text: {
        key: 'workbookNoSheet',
        params: { sheet: typeof wanted === 'number' ? wanted : `"${wanted}"`, setting: 'xlsx.sheet', sheets: listSheets(sheets) },
      },
    });
  }
  if (chosen.kind !== 'worksheet') {
    throw new ConnectorError(
      'FILE_UNREADABLE',
      `has a ${chosen.kind} as sheet ${chosen.position} ("${chosen.name}"), which holds no cells: name the sheet to read in the mapping (xlsx.sheet); its sheets are ${listSheets(sheets)}`,
      { text: { key: 'workbookNotWorksheet', params: { position: chosen.position, name: chosen.name, setting: 'xlsx.sheet', sheets: listSheets(sheets) } } },
    );
  }
  return chosen;
}

/** `1 "Заявки", 2 "Справочник" (hidden)`. */
function listSheets(sheets: readonly SheetEntry[]): string {
  const named = sheets.slice(0, NAMED_IN_MESSAGE).map((sheet) => `${sheet.position} "${sheet.name}"${sheet.hidden ? ' (hidden)' : ''}`);
  const more = sheets.length - named.length;
  return named.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

/** `sheet "Заявки"`, `sheet "Справочник" (hidden)`. */
export function sheetLabel(sheet: SheetEntry): string {
  return `sheet "${sheet.name}"${sheet.hidden ? ' (hidden)' : ''}`;
}
