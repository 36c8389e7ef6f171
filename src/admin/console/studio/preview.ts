/**
 * The preview: the editor's YAML checked as the daemon checks a mapping, then the sample mapped by
 * the real mapper (`mapFile`) with the flow's rules, gathered into what the page shows: the
 * payloads (the first `SHOWN_PAYLOADS`) and the problems as rows (row, field, source column, code,
 * message, the cell's value; the first `SHOWN_PROBLEMS`), with whole counts. A preview that maps
 * for longer than `PREVIEW_TIMEOUT_MS` stops and says so.
 */
import type { FlowConfig, FlowKind } from '../../../config/flow-schema.js';
import { describeError, isConnectorError } from '../../../errors.js';
import type { MappingProblem, MessageText, RowNumbering } from '../../../shared/types.js';
import type { MappingSpec } from '../../../config/mapping-schema.js';
import { judgeBeforeReading, judgeMappedFile, refusedJudgement } from '../../../mapping/judge-file.js';
import { formatOf, mapFile, rowNumberingOf, type InputFormat } from '../../../mapping/index.js';
import { checkMappingText, sourceOfProblem, type YamlProblem } from './check-mapping.js';
import { PREVIEW_TIMEOUT_MS, SHOWN_PAYLOADS, SHOWN_PROBLEMS } from './limits.js';
import { withSampleFile } from './sample-file.js';
import type { Sample, SampleInfo } from './samples.js';

export interface ProblemRow {
  /** The row as the file's program numbers it (a CSV's line, a sheet's row), or the record (JSON, XML); null for the whole file. */
  row: number | null;
  /** Target field (`customer.inn`, `items[1].quantity`) or, for a missing column, the column. */
  field: string | null;
  /** The column (JSON path, template) the field reads, from the mapping being previewed. */
  column: string | null;
  code: string;
  /** The English sentence (the page words it from `text` and `code`). */
  message: string;
  /** What is wrong, for the page to word in its language. */
  text: MessageText | null;
  /** A sheet's cell, or an XML element's line and column. */
  cell: string | null;
  line: number | null;
  lineColumn: number | null;
  /** The cell's value, when short enough to show. */
  value: string | null;
  externalId: string | null;
}

export interface PreviewResult {
  /** Requests (or confirmations) the mapping builds from the sample. */
  submissions: number;
  problems: number;
  payloads: { key: string; firstRow: number; payload: unknown }[];
  problemRows: ProblemRow[];
  /** Why the mapping stopped before the end of the sample (the time limit), or null. */
  stopped: string | null;
  /** What the daemon would do with the sample: take it, or set it aside (`rejected`) with the code that decides it. */
  outcome: { state: 'archived' | 'rejected'; code: string | null };
  /** How the problems number rows: a CSV's lines, Excel's rows, or records. */
  rows: RowNumbering;
}

export type MappingState = { ok: true; format: InputFormat | null } | { ok: false; code: 'MAPPING_INVALID'; message: string; problems: YamlProblem[] };

/** What the preview endpoint answers (as JSON, or rendered). */
export interface PreviewData {
  flow: string;
  kind: FlowKind;
  sample: SampleInfo | null;
  /** The chosen sample could not be read (gone from the archive, too large, not a regular file). */
  sampleError: { code: string; message: string } | null;
  mapping: MappingState;
  /** Null when the mapping does not load or there is no sample. */
  result: PreviewResult | null;
}

export function sampleInfo(sample: Sample | null): SampleInfo | null {
  if (!sample) return null;
  const { bytes: _bytes, ...info } = sample;
  return info;
}

export async function previewMapping(
  text: string,
  flow: FlowConfig,
  sample: Sample | null,
  sampleError: PreviewData['sampleError'],
  now: Date,
): Promise<PreviewData> {
  const base = { flow: flow.name, kind: flow.kind, sample: sampleInfo(sample), sampleError };
  const check = checkMappingText(text, flow);
  if (!check.ok) return { ...base, mapping: { ok: false, code: check.code, message: check.message, problems: check.problems }, result: null };
  const { spec } = check;
  const format = sample ? formatOf(sample.name, spec) : (spec.format ?? null);
  if (!sample) return { ...base, mapping: { ok: true, format }, result: null };

  const result: PreviewResult = {
    submissions: 0,
    problems: 0,
    payloads: [],
    problemRows: [],
    stopped: null,
    outcome: { state: 'archived', code: null },
    rows: rowNumberingOf(formatOf(sample.name, spec)),
  };
  const rules = {
    flow: flow.name,
    fileLabel: sample.name,
    rejectWholeFile: flow.intake.rejectWholeFile,
    acceptEmpty: flow.enterpriseData !== undefined,
  };
  const signal = AbortSignal.timeout(PREVIEW_TIMEOUT_MS);
  try {
    // The daemon's own judgement (`mapping/judge-file.ts`): what it would set aside, the page names with the same code.
    const refused = judgeBeforeReading(sample.name, sample.bytes.length, flow.intake);
    const judgement = refused
      ? refusedJudgement(refused)
      : await withSampleFile(sample, async (input) => {
          const options = { now, rejectPastDates: flow.intake.rejectPastDates, fileLabel: sample.name, signal, archivePassword: flow.enterpriseData?.password };
          return judgeMappedFile(mapFile(input, spec, options), {
            ...rules,
            signal,
            onItem: (item) => {
              // Counted as they come, so that a preview stopped by its time limit still shows what it saw.
              if (item.kind === 'problem') {
                result.problems += 1;
                if (result.problemRows.length < SHOWN_PROBLEMS) result.problemRows.push(problemRow(spec, item.problem));
              }
              if (item.kind !== 'submission') return;
              result.submissions += 1;
              const { submission } = item;
              if (result.payloads.length < SHOWN_PAYLOADS)
                result.payloads.push({ key: submission.externalId, firstRow: submission.firstRow, payload: submission.payload });
            },
          });
        });
    // The report's problems, the judgement's own included; a withdrawal is judged against the outbox, which a preview does not read.
    result.problems = judgement.problemCount;
    result.problemRows = judgement.problems.slice(0, SHOWN_PROBLEMS).map((problem) => problemRow(spec, problem));
    result.outcome = { state: judgement.state, code: judgement.code };
  } catch (error) {
    if (!signal.aborted || isConnectorError(error)) throw error;
    result.stopped = `stopped after ${PREVIEW_TIMEOUT_MS / 1000} s: ${describeError(error)}`;
  }
  return { ...base, mapping: { ok: true, format }, result };
}

function problemRow(spec: MappingSpec, problem: MappingProblem): ProblemRow {
  return {
    row: problem.row,
    field: problem.field,
    column: sourceOfProblem(spec, problem.code, problem.field),
    code: problem.code,
    message: problem.message,
    text: problem.text ?? null,
    cell: problem.cell ?? null,
    line: problem.line ?? null,
    lineColumn: problem.column ?? null,
    value: problem.value ?? null,
    externalId: problem.externalId ?? null,
  };
}
