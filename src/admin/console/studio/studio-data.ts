/** What the mapping page shows (and answers as JSON for `GET /mapping`): the editor's text, the samples, the preview, the saves. */
import type { FlowConfig, FlowKind } from '../../../config/flow-schema.js';
import { listAuditOfTarget } from '../../../store/audit.js';
import type { ConsoleDeps } from '../deps.js';
import { auditItem, type AuditItem } from '../data/shapes.js';
import { readMappingText, writeProblem } from './mapping-file.js';
import type { PreviewData } from './preview.js';
import { listArchiveSamples, type SampleInfo } from './samples.js';

export interface StudioData {
  page: 'mapping';
  flow: string;
  kind: FlowKind;
  /** The flow's mapping file (`flows[].mapping`). */
  file: string;
  /** SHA-256 of the file as read: a save refuses to overwrite a file that changed since. */
  version: string | null;
  /** The editor's text: the file's, or what the operator posted. */
  text: string;
  /** Why the file could not be read. */
  fileError: string | null;
  /** Why saving will fail (`MAPPING_NOT_WRITABLE`), checked before anyone types. */
  notWritable: { code: string; message: string } | null;
  /** The newest archived files of the flow, and the upload the form refers to. */
  samples: SampleInfo[];
  sampleId: string | null;
  preview: PreviewData;
  /** After "Suggest": the summary of what was detected. */
  suggestion: { summary: string; complete: boolean } | null;
  /** A save that was refused (invalid, changed on disk, not writable, reload failed). */
  saveError: { code: string; message: string } | null;
  /** The latest saves of this mapping (audit). */
  audit: AuditItem[];
}

export interface StudioParts {
  /** The editor's text; undefined: the file's. */
  text?: string;
  /** The version the posted text started from (kept across previews). */
  version?: string | null;
  preview: PreviewData;
  suggestion?: StudioData['suggestion'];
  saveError?: StudioData['saveError'];
}

export async function studioData(deps: ConsoleDeps, flow: FlowConfig, parts: StudioParts): Promise<StudioData> {
  const file = await readMappingText(flow);
  const archived = await listArchiveSamples(flow.inbox);
  const chosen = parts.preview.sample;
  const samples = chosen && !archived.some((s) => s.id === chosen.id) ? [...archived, chosen] : archived;
  const problem = await writeProblem(flow);
  return {
    page: 'mapping',
    flow: flow.name,
    kind: flow.kind,
    file: flow.mapping,
    version: parts.version !== undefined ? parts.version : file.version,
    text: parts.text ?? file.text,
    fileError: file.error,
    notWritable: problem && { code: problem.code, message: problem.message },
    samples,
    sampleId: chosen?.id ?? null,
    preview: parts.preview,
    suggestion: parts.suggestion ?? null,
    saveError: parts.saveError ?? null,
    audit: listAuditOfTarget(deps.db, flow.name, flow.mapping, 10).map(auditItem),
  };
}
