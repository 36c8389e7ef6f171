/**
 * `previewFile`: everything `mapFile` would yield, gathered, for the `preview` command, and the
 * daemon's own judgement of the file (`judge-file.ts`): a file the daemon would set aside is
 * `rejected` here too, with the same code (an empty file FILE_EMPTY, a header alone MAPPING_FAILED,
 * a truncated one FILE_UNREADABLE, …). Touches nothing. The path is opened as intake opens its
 * files: a symlink or a FIFO is a FILE_NOT_REGULAR problem, not followed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { flowIntakeSchema } from '../config/flow-schema.js';
import type { MappingSpec } from '../config/mapping-schema.js';
import { judgeBeforeReading, judgeMappedFile, refusedJudgement, type FileJudgement } from './judge-file.js';
import { mapFile, type MapOptions } from './map-file.js';
import type { MappedSubmission, MappedWithdrawal } from './types.js';
import { type MappingProblem } from '../shared/types.js';

export interface PreviewResult {
  /** The submissions (requests or confirmations) that would be recorded. */
  requests: MappedSubmission[];
  /** Documents the file withdraws (`withdrawals:` of an XML mapping), by identity. */
  withdrawals: MappedWithdrawal[];
  /** The problems as the daemon's report would list them (the judgement's own, a file of no records, included). */
  problems: MappingProblem[];
  /** What the daemon would do with the file: take it (`archived`) or set it aside (`rejected`, with the code that decides it). */
  outcome: { state: FileJudgement['state']; code: string | null };
}

/** The flow's rules a preview judges with (a flow's defaults when absent). */
export interface PreviewJudgeRules {
  /** The flow's name, for the "holds no records" message; the mapping's kind by default. */
  flow?: string | undefined;
  rejectWholeFile?: boolean | undefined;
  maxFileBytes?: number | undefined;
  /** An exchange flow takes a message with no purchase order. */
  acceptEmpty?: boolean | undefined;
}

export async function previewFile(filePath: string, spec: MappingSpec, options: MapOptions & PreviewJudgeRules): Promise<PreviewResult> {
  const defaults = flowIntakeSchema.parse({});
  const fileLabel = options.fileLabel ?? path.basename(filePath);
  const result: PreviewResult = { requests: [], withdrawals: [], problems: [], outcome: { state: 'archived', code: null } };
  const refused = await refusedUnread(filePath, fileLabel, options.maxFileBytes ?? defaults.maxFileBytes);
  const judgement =
    refused ??
    (await judgeMappedFile(mapFile(filePath, spec, options), {
      flow: options.flow ?? spec.kind,
      fileLabel,
      rejectWholeFile: options.rejectWholeFile ?? defaults.rejectWholeFile,
      acceptEmpty: options.acceptEmpty,
      onItem: (item) => {
        if (item.kind === 'submission') result.requests.push(item.submission);
        else if (item.kind === 'withdrawal') result.withdrawals.push(item.withdrawal);
      },
    }));
  result.problems = judgement.problems;
  result.outcome = { state: judgement.state, code: judgement.code };
  return result;
}

/** An empty or too large regular file, refused as intake refuses it; anything else is for `mapFile` to open (or refuse). */
async function refusedUnread(filePath: string, fileLabel: string, maxFileBytes: number): Promise<FileJudgement | null> {
  const stat = await fs.lstat(filePath).catch(() => null);
  if (!stat?.isFile()) return null;
  const refused = judgeBeforeReading(fileLabel, stat.size, { maxFileBytes });
  return refused && refusedJudgement(refused);
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
  lines.push(
    result.outcome.state === 'rejected'
      ? `The daemon would reject this file (${result.outcome.code}): it would go to rejected/ and none of it would be recorded`
      : 'The daemon would take this file',
  );
  return `${lines.join('\n')}\n`;
}
