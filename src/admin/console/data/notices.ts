/**
 * Document notices (`store/document-notices.ts`) as the console shows them: what a person must do
 * about a document its source changed or withdrew after it was sent, or that a problem kept from
 * being sent, with the detail parsed and the times as ISO 8601.
 */
import type { DocumentNotice } from '../../../store/document-notices.js';
import { iso } from '../format.js';
import { parseJson } from './shapes.js';

/** One change between what was sent and the document's new version (`intake/describe-changes.ts`'s shape). */
export type NoticeChangeItem =
  | { what: 'field'; field: string; from: string | null; to: string | null }
  | { what: 'line'; name: string; unit: string; from: number | null; to: number | null };

export interface NoticeItem {
  id: number;
  flow: string;
  kind: 'edited' | 'withdrawn' | 'problem';
  documentId: string;
  /** The number the buyer sees now. */
  documentNumber: string | null;
  /** Its request: what it was sent as, the platform's id, its state (null for a problem: nothing was sent). */
  externalId: string | null;
  platformId: string | null;
  state: string | null;
  /** `edited`: what changed. */
  changes: NoticeChangeItem[];
  /** `problem`: the document's problems. */
  problems: { code: string; field: string | null; message: string; text?: { key: string; params?: Record<string, string | number> } }[];
  fileId: number | null;
  fileName: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  resolvedAt: string | null;
  resolution: string | null;
}

export function noticeItem(row: DocumentNotice): NoticeItem {
  const detail = (parseJson(row.detail) ?? {}) as { changes?: NoticeChangeItem[]; problems?: NoticeItem['problems'] };
  return {
    id: row.id,
    flow: row.flow,
    kind: row.kind,
    documentId: row.documentId,
    documentNumber: row.documentNumber,
    externalId: row.externalId,
    platformId: row.platformId,
    state: row.state,
    changes: Array.isArray(detail.changes) ? detail.changes : [],
    problems: Array.isArray(detail.problems) ? detail.problems : [],
    fileId: row.fileId,
    fileName: row.fileName,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    resolvedAt: iso(row.resolvedAt),
    resolution: row.resolution,
  };
}
