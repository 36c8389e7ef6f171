/**
 * `previewFile`: everything `mapFile` would yield, gathered, for the `preview` command. Touches
 * nothing. The path is opened as intake opens its files: a symlink or a FIFO is a FILE_NOT_REGULAR
 * problem, not followed.
 */
import type { MappingSpec } from '../config/mapping-schema.js';
import { mapFile, type MapOptions } from './map-file.js';
import type { MappedSubmission, MappedWithdrawal } from './types.js';
import { type MappingProblem } from '../shared/types.js';

export interface PreviewResult {
  /** The submissions (requests or confirmations) that would be recorded. */
  requests: MappedSubmission[];
  /** Documents the file withdraws (`withdrawals:` of an XML mapping), by identity. */
  withdrawals: MappedWithdrawal[];
  problems: MappingProblem[];
}

export async function previewFile(filePath: string, spec: MappingSpec, options: MapOptions): Promise<PreviewResult> {
  const result: PreviewResult = { requests: [], withdrawals: [], problems: [] };
  for await (const item of mapFile(filePath, spec, options)) {
    if (item.kind === 'submission') result.requests.push(item.submission);
    else if (item.kind === 'withdrawal') result.withdrawals.push(item.withdrawal);
    else result.problems.push(item.problem);
  }
  return result;
}

/** Human-readable preview: each payload as JSON, then each problem on one line. */
export function formatPreview(result: PreviewResult): string {
  const lines: string[] = [];
  for (const submission of result.requests) {
    const target = submission.kind === 'confirmation' ? `order ${submission.orderId}` : `request ${submission.externalId}`;
    const document = submission.kind === 'request' && submission.document ? ` document ${submission.document.id}` : '';
    lines.push(`# ${target}${document} (row ${submission.firstRow})`, JSON.stringify(submission.payload, null, 2));
  }
  for (const withdrawal of result.withdrawals) lines.push(`# withdrawal of document ${withdrawal.documentId} (row ${withdrawal.row})`);
  lines.push(
    [
      `${result.requests.length} ${result.requests.length === 1 ? 'submission' : 'submissions'}`,
      ...(result.withdrawals.length > 0 ? [`${result.withdrawals.length} ${result.withdrawals.length === 1 ? 'withdrawal' : 'withdrawals'}`] : []),
      `${result.problems.length} ${result.problems.length === 1 ? 'problem' : 'problems'}`,
    ].join(', '),
  );
  for (const problem of result.problems) lines.push(`${problem.code}: ${problem.message}`);
  return `${lines.join('\n')}\n`;
}
