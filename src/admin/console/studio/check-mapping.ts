/**
 * The editor's YAML checked as the daemon checks a mapping file (`check`, SIGHUP): the same
 * parser, size cap and validation (`parseMappingText`), and the kind must be the flow's. A problem
 * is a key path or a line and column, with a message; never a stack trace.
 */
import path from 'node:path';
import type { FlowConfig } from '../../../config/flow-schema.js';
import type { ConfigProblem } from '../../../config/load-config.js';
import { parseMappingText } from '../../../config/load-mapping.js';
import type { FieldSpec, MappingSpec } from '../../../config/mapping-schema.js';
import type { ConnectorError } from '../../../errors.js';
import { describeError, isConnectorError, type MessageText } from '../../../errors.js';

/** One thing wrong with the YAML: a key path (`items.quantity.integr`) or a line and column (a syntax error). */
export interface YamlProblem {
  path: string;
  /** The English of `check` and the log. */
  message: string;
  line: number | null;
  column: number | null;
  /** The message as the page words it (`config/issue-text.ts`); null for a bare error, shown by its code. */
  text: MessageText | null;
}

export type MappingCheck = { ok: true; spec: MappingSpec } | { ok: false; code: 'MAPPING_INVALID'; message: string; problems: YamlProblem[] };

/** How the editor's text is named in messages: the flow's mapping file, as edited. */
export function editorLabel(flow: FlowConfig): string {
  return `${path.basename(flow.mapping)} (editor)`;
}

/** Browsers send a textarea with CRLF line ends; the file gets the LF the daemon's own files have. */
export function normalizeEditorText(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function checkMappingText(text: string, flow: FlowConfig, label = editorLabel(flow)): MappingCheck {
  let spec: MappingSpec;
  try {
    spec = parseMappingText(text, label);
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    return invalid(error);
  }
  if (spec.kind !== flow.kind) {
    const message = `flow ${flow.name} takes ${flow.kind} mappings; this is a ${spec.kind} mapping`;
    return {
      ok: false,
      code: 'MAPPING_INVALID',
      message: `${label} is invalid:\n  kind: ${message}`,
      problems: [
        { path: 'kind', message, line: null, column: null, text: { key: 'kindMismatch', params: { flow: flow.name, kind: flow.kind, actual: spec.kind } } },
      ],
    };
  }
  return { ok: true, spec };
}

function invalid(error: ConnectorError): MappingCheck {
  const listed = Array.isArray(error.details.problems) ? (error.details.problems as ConfigProblem[]) : [];
  const problems = listed.map((p): YamlProblem => ({ path: p.path, message: p.message, line: p.line ?? null, column: p.column ?? null, text: p.text ?? null }));
  // A mapping error always lists its problems; a bare message is kept whole rather than lost.
  if (problems.length === 0) problems.push({ path: '', message: describeError(error), line: null, column: null, text: null });
  return { ok: false, code: 'MAPPING_INVALID', message: error.message, problems };
}

/**
 * The source a problem's field reads, for the problems table: the CSV column (or JSON path, or
 * template) of `customer.inn`, `items[2].unit`, `orderId`; a missing column names itself.
 */
export function sourceOfProblem(spec: MappingSpec, code: string, field: string | null): string | null {
  if (field === null) return null;
  if (code === 'COLUMN_MISSING') return field;
  const line = /^items\[\d+\]\.(.+)$/.exec(field);
  if (line) return describeSource(spec.items[line[1]!]);
  if (field === 'orderId' && spec.kind === 'confirmations') return describeSource(spec.orderId) ?? spec.groupBy ?? null;
  if (field === 'externalId') return describeSource(spec.header.externalId) ?? spec.groupBy ?? null;
  return describeSource(spec.header[field]);
}

function describeSource(field: FieldSpec | undefined): string | null {
  return field?.column ?? field?.path ?? field?.template ?? null;
}
