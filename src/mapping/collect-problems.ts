/**
 * The mapping problems of one file, bounded: a large file of garbage must end in `rejected/` with a
 * readable report, not in a report too large to build (and so retried forever), and a file being
 * recorded in chunks must not hold more than a page of problems in memory. Each problem kept is
 * bounded too (`bound-problem.ts`): a page of problems is a few MB at most, whatever their rows hold.
 */
import { describeError, isConnectorError } from '../errors.js';
import { readerFault } from './map-file.js';
import type { MappedItem } from './types.js';
import type { MappingProblem } from '../shared/types.js';
import { boundProblem } from './bound-problem.js';

/** Problems listed in a report; the rest are counted in one closing line. */
export const MAX_LISTED_PROBLEMS = 1_000;
/** Past this many problems the file is not read further and is rejected whole: it is not the export the mapping expects. */
export const MAX_PROBLEMS = 10_000;

export interface ProblemCollector {
  /** Keep (or count) one problem; false when the file has too many to be read further. */
  add(problem: MappingProblem): boolean;
  /** The problems to report, with the closing line for those not listed. */
  list(): MappingProblem[];
}

export function collectProblems(fileLabel: string): ProblemCollector {
  const problems: MappingProblem[] = [];
  let total = 0;
  let firstOmittedRow: number | null = null;
  let stopped = false;
  return {
    add(problem) {
      total += 1;
      if (problems.length < MAX_LISTED_PROBLEMS || problem.row === null) problems.push(boundProblem(problem));
      else firstOmittedRow ??= problem.row;
      if (total <= MAX_PROBLEMS) return true;
      stopped = true;
      problems.push({
        row: null,
        field: null,
        code: 'MAPPING_FAILED',
        message: `${fileLabel}: more than ${MAX_PROBLEMS} problems; the file was not read further and nothing in it was submitted (check that the mapping fits this export)`,
        text: { key: 'tooManyProblems', params: { n: MAX_PROBLEMS } },
      });
      return false;
    },
    list() {
      if (stopped || total <= problems.length) return [...problems];
      return [
        ...problems,
        {
          row: firstOmittedRow,
          field: null,
          code: 'MAPPING_FAILED',
          message: `${fileLabel}: ${total - MAX_LISTED_PROBLEMS} more problems from row ${firstOmittedRow} on are not listed (the report shows the first ${MAX_LISTED_PROBLEMS})`,
          text: { key: 'moreProblems', params: { n: total - MAX_LISTED_PROBLEMS, row: firstOmittedRow ?? 0, shown: MAX_LISTED_PROBLEMS } },
        },
      ];
    },
  };
}

/**
 * The mapper's items, with a failure of the mapper itself turned into one file-level problem that
 * ends the stream. Only the mapper's own failures: what the consumer throws (a store error while
 * recording) goes on up, it says nothing about the file.
 */
export async function* catchMapperFailure(items: AsyncIterable<MappedItem>, fileLabel: string, onFault?: (error: unknown) => void): AsyncGenerator<MappedItem> {
  try {
    yield* items;
  } catch (error) {
    if (isConnectorError(error)) {
      yield { kind: 'problem', problem: { row: null, field: null, code: error.code, message: `${fileLabel}: ${describeError(error)}`, text: error.text } };
      return;
    }
    onFault?.(error);
    yield readerFault(fileLabel, error);
  }
}
