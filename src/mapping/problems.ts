/** Building `MappingProblem`s with messages that name the file, the row and the field. */
import type { ErrorCode } from '../errors.js';
import type { MappedItem } from './types.js';
import { type MappingProblem } from '../shared/types.js';

/** Longest source value quoted in a message. */
const MAX_SHOWN_VALUE = 120;

export interface ProblemInput {
  row: number | null;
  field: string | null;
  code: ErrorCode;
  /** What is wrong, worded to follow the field and value: `fails the INN check digit`. */
  reason: string;
  value?: string | number | undefined;
  externalId?: string | undefined;
}

/** `Row 14 of requests-0612.csv: customer.inn "7707083894" fails the INN check digit`. */
export function makeProblem(fileLabel: string, input: ProblemInput): MappingProblem {
  const shown = input.value === undefined || input.value === '' ? undefined : String(input.value);
  const quoted = shown !== undefined && shown.length <= MAX_SHOWN_VALUE ? ` ${JSON.stringify(shown)}` : '';
  const where = input.row === null ? `${fileLabel}: ` : `Row ${input.row} of ${fileLabel}: `;
  const subject = input.field === null ? '' : `${input.field}${quoted} `;
  const problem: MappingProblem = { row: input.row, field: input.field, code: input.code, message: `${where}${subject}${input.reason}` };
  if (input.externalId !== undefined && input.externalId !== '') problem.externalId = input.externalId;
  if (shown !== undefined && shown.length <= MAX_SHOWN_VALUE) problem.value = shown;
  return problem;
}

export function problemItem(problem: MappingProblem): MappedItem {
  return { type: 'problem', problem };
}
