/** Recording a mapped file: the intake's plan (`plan-file.ts`), executed by the store in one transaction. */
import { recordFile, type PreparedSubmission, type RecordFileResult } from '../store/record-file.js';
import type { Db } from '../store/open-store.js';
import type { MappingProblem } from '../shared/types.js';
import { planFile } from './plan-file.js';

export interface MappedFileRecord {
  flow: string;
  fileId: number;
  submissions: readonly PreparedSubmission[];
  problems: readonly MappingProblem[];
  rejectWholeFile: boolean;
  now: number;
  /** Where the file goes for an outcome. */
  destinationFor: (state: 'archived' | 'rejected') => string;
}

export function recordMappedFile(db: Db, input: MappedFileRecord): RecordFileResult {
  const { submissions, problems, rejectWholeFile, flow } = input;
  return recordFile(db, {
    flow,
    fileId: input.fileId,
    now: input.now,
    dedupeKeys: submissions.map((s) => s.dedupeKey),
    plan: (file, existing) => planFile({ flow, submissions, problems, rejectWholeFile }, file, existing),
    destinationFor: input.destinationFor,
  });
}
