/**
 * Where a workbook keeps what a sheet needs: the sheets in workbook order (`xl/workbook.xml`
 * `<sheets>`), each sheet's part found through the workbook's relationships (never guessed from a
 * `sheetN.xml` file name: `sheet1.xml` need not be the first sheet), the styles and shared strings
 * parts, and the date system. The workbook part itself is the package's officeDocument
 * relationship (`_rels/.rels`), `xl/workbook.xml` when a writer left that out.
 */
import type { WorkbookArchive } from './workbook-archive.js';
import { attributeByLocalName, parsePart } from './xml-part.js';

export interface SheetEntry {
  name: string;
  /** 1-based, in workbook order, hidden sheets included. */
  position: number;
  hidden: boolean;
  /** `worksheet`, or what else the relationship says (`chartsheet`, `dialogsheet`, `macrosheet`). */
  kind: string;
  /** The part holding it, or undefined when its relationship is missing. */
  part: string | undefined;
}

export interface WorkbookParts {
  workbook: string;
  sheets: SheetEntry[];
  /** `<workbookPr date1904="1"/>`: serial 0 is 1904-01-01. */
  date1904: boolean;
  styles: string | undefined;
  sharedStrings: string | undefined;
}

interface Relationship {
  type: string;
  target: string;
}

export const DEFAULT_WORKBOOK_PART = 'xl/workbook.xml';

/** The package's main part (the officeDocument relationship), or undefined when `_rels/.rels` names none. */
export async function findMainPart(archive: WorkbookArchive, signal?: AbortSignal): Promise<string | undefined> {
  if (!archive.has('_rels/.rels')) return undefined;
  const rels = await readRelationships(archive, '_rels/.rels', '', signal);
  for (const rel of rels.values()) if (rel.type.endsWith('/officeDocument')) return rel.target;
  return undefined;
}

/** Read the workbook part and its relationships. */
export async function readWorkbookParts(archive: WorkbookArchive, workbook: string, signal?: AbortSignal): Promise<WorkbookParts> {
  const folder = workbook.slice(0, workbook.lastIndexOf('/') + 1);
  const relsPart = `${folder}_rels/${workbook.slice(folder.length)}.rels`;
  const rels = archive.has(relsPart) ? await readRelationships(archive, relsPart, folder, signal) : new Map<string, Relationship>();
  const listed: { name: string; hidden: boolean; id: string | undefined }[] = [];
  let date1904 = false;
  let inSheets = false;
  await parsePart(
    archive,
    workbook,
    {
      open(name, attributes) {
        if (name === 'sheets') inSheets = true;
        else if (name === 'sheet' && inSheets) {
          const state = attributes.state;
          listed.push({ name: attributes.name ?? '', hidden: state === 'hidden' || state === 'veryHidden', id: attributeByLocalName(attributes, 'id') });
        } else if (name === 'workbookPr') {
          const value = attributes.date1904;
          date1904 = value === '1' || value === 'true';
        }
      },
      close(name) {
        if (name === 'sheets') inSheets = false;
      },
    },
    signal,
  );
  const byType = (suffix: string) => [...rels.values()].find((rel) => rel.type.endsWith(suffix))?.target;
  const sheets = listed.map(({ name, hidden, id }, index): SheetEntry => {
    const rel = id === undefined ? undefined : rels.get(id);
    const kind = rel === undefined ? 'worksheet' : rel.type.slice(rel.type.lastIndexOf('/') + 1);
    return { name, position: index + 1, hidden, kind, part: rel?.target };
  });
  return { workbook, sheets, date1904, styles: byType('/styles'), sharedStrings: byType('/sharedStrings') };
}

/** A `.rels` part: relationships by Id, targets resolved to part names (external targets left out). */
async function readRelationships(archive: WorkbookArchive, part: string, folder: string, signal?: AbortSignal): Promise<Map<string, Relationship>> {
  const rels = new Map<string, Relationship>();
  await parsePart(
    archive,
    part,
    {
      open(name, attributes) {
        if (name !== 'Relationship' || attributes.TargetMode === 'External') return;
        const { Id: id, Type: type, Target: target } = attributes;
        if (id !== undefined && type !== undefined && target !== undefined) rels.set(id, { type, target: resolveTarget(folder, target) });
      },
      close() {},
    },
    signal,
  );
  return rels;
}

/**
 * A relationship's target as a part name: absolute (`/xl/worksheets/sheet1.xml`) from the package
 * root, relative (`worksheets/sheet1.xml`, `../xl/styles.xml`) from the folder of the part that
 * holds the relationship.
 */
export function resolveTarget(folder: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // A stray % is a literal character of the name.
  }
  const path = decoded.startsWith('/') ? decoded.slice(1) : folder + decoded;
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return parts.join('/');
}
