/** Building `MappingProblem`s with messages that name the file, the row and the field. */
import type { ErrorCode } from '../errors.js';
import { problemPlace, type MappingProblem, type MessageText } from '../shared/types.js';

/** Longest source value quoted in a message. */
const MAX_SHOWN_VALUE = 120;

export interface ProblemInput {
  row: number | null;
  /** A sheet's cell reference (`Заявки!C7`). */
  cell?: string | undefined;
  /** XML: where the element starts. */
  line?: number | undefined;
  column?: number | undefined;
  field: string | null;
  code: ErrorCode;
  /** What is wrong, worded to follow the field and value: `fails the INN check digit`. */
  reason: string;
  value?: string | number | undefined;
  externalId?: string | undefined;
  /** The document the problem is of (`document:` of a mapping): its identity and its number. */
  document?: { id: string; number: string | null } | undefined;
  /** The reason as a catalogue key and parameters, for the console. */
  text?: MessageText | undefined;
}

/**
 * `Row 14 of requests-0612.csv: customer.inn "7707083894" fails the INN check digit`; a sheet names
 * the cell (`Row 7 (Заявки!C7) of orders.xlsx: …`), XML the element's start (`Row 2 (line 40,
 * column 7) of orders.xml: …`), a document its number (`Row 2 (…) of Message_УТ_ПК.xml, ЗП-2: …`).
 */
export function makeProblem(fileLabel: string, input: ProblemInput): MappingProblem {
  const shown = input.value === undefined || input.value === '' ? undefined : String(input.value);
  const quoted = shown !== undefined && shown.length <= MAX_SHOWN_VALUE ? ` ${JSON.stringify(shown)}` : '';
  const at = problemPlace(input) ?? '';
  // A document is named by the number its buyer knows it by (`…, ЗП-000125: …`).
  const document = input.document?.number ? `, ${input.document.number}` : '';
  const where =
    input.row === null
      ? at === ''
        ? `${fileLabel}: `
        : `${fileLabel} (${at}): `
      : `Row ${input.row}${at === '' ? '' : ` (${at})`} of ${fileLabel}${document}: `;
  const subject = input.field === null ? '' : `${input.field}${quoted} `;
  const problem: MappingProblem = { row: input.row, field: input.field, code: input.code, message: `${where}${subject}${input.reason}` };
  if (input.cell !== undefined) problem.cell = input.cell;
  if (input.line !== undefined) problem.line = input.line;
  if (input.column !== undefined) problem.column = input.column;
  if (input.externalId !== undefined && input.externalId !== '') problem.externalId = input.externalId;
  if (input.document !== undefined) {
    problem.documentId = input.document.id;
    if (input.document.number !== null) problem.documentNumber = input.document.number;
  }
  if (shown !== undefined && shown.length <= MAX_SHOWN_VALUE) problem.value = shown;
  if (input.text !== undefined) problem.text = input.text;
  return problem;
}
