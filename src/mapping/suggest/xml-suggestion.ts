/**
 * What every XML suggestion shares, whichever preset it proposes: the suggestion's shape (no
 * columns, no CSV options; the documents counted), and the skeleton for an XML file no preset
 * reads, naming what to write by hand.
 */
import type { MappingKind } from '../../config/mapping-schema.js';
import { shown } from './shown.js';
import { targetsOf } from './targets.js';
import type { FieldSuggestion, MappingSuggestion } from './types.js';
import { phrase, phraseEnglish, type Phrase } from './summary-words.js';

/** The parts of an XML suggestion its proposer decides. */
export interface XmlSuggestionParts {
  fileName: string;
  kind: MappingKind;
  /** The mapping as data: `{ preset: 'commerceml' }`, with the fields written beside it. */
  mapping: Record<string, unknown>;
  yaml: string;
  fields: FieldSuggestion[];
  /** The documents (requests) the sample holds. */
  documents: number;
  /** What the document is, for the summary: `a CommerceML document export, 3 order documents (preset commerceml)`. */
  document: Phrase;
  warnings: Phrase[];
  notes?: Phrase[];
  complete: boolean;
}

export function xmlSuggestion(parts: XmlSuggestionParts): MappingSuggestion {
  const { fileName, kind, mapping, yaml, fields, documents, document, warnings, notes, complete } = parts;
  return {
    kind,
    fileName,
    yaml,
    mapping: { kind, ...mapping },
    sample: {
      format: 'xml',
      encoding: { value: 'auto', reason: phrase('summary.why.xmlDeclaration') },
      document,
      columns: [],
      rowCount: documents,
      warnings,
    },
    decimalComma: { value: false, reason: phrase('summary.why.xmlPoint') },
    thousands: [],
    groupCount: documents,
    dates: {},
    fields,
    unusedColumns: [],
    warnings,
    ...(notes !== undefined && notes.length > 0 ? { notes } : {}),
    complete,
  };
}

/** Any other XML: what to write by hand. */
export function xmlSkeleton(fileName: string, kind: MappingKind, warnings: Phrase[]): MappingSuggestion {
  const yaml = [
    `# Mapping suggested by \`procurement-connector mapping suggest\` from ${shown(fileName)} (${kind}).`,
    `# An XML file no preset reads as ${kind}: write the element path of one request`,
    "# (record, from the root), of its lines (lines, inside the record) and each field's path",
    '# (docs/mapping.md, "XML and CommerceML"), then run `preview`.',
    ...warnings.map((warning) => `# WARNING: ${phraseEnglish(warning)}`),
    `kind: ${kind}`,
    'format: xml',
    '# TODO record: "Root/Document"',
    '# TODO lines: "Lines/Line"',
    '',
  ].join('\n');
  const fields = targetsOf(kind).map((target): FieldSuggestion => ({
    key: target.key,
    required: target.required,
    source: undefined,
    options: {},
    confidence: 0,
    reason: phrase('summary.why.byHand'),
  }));
  return xmlSuggestion({
    fileName,
    kind,
    mapping: { format: 'xml' },
    yaml,
    fields,
    documents: 0,
    document: phrase('summary.doc.noPreset'),
    warnings,
    complete: false,
  });
}
