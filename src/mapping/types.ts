/**
 * What the mapping stage hands to intake: a stream of mapped submissions and problems.
 * Intake records the submissions and writes the problems into the file's error report.
 */
import type { ConfirmOrder, CreateRequest } from '../platform/contract.js';
import type { DocumentRef, MappingProblem } from '../shared/types.js';

export type { DocumentRef } from '../shared/types.js';

export const SUBMISSION_KIND = { request: 'request', confirmation: 'confirmation' } as const;
export type SubmissionKind = (typeof SUBMISSION_KIND)[keyof typeof SUBMISSION_KIND];

/** One valid payload, ready to record in the outbox. */
export type MappedSubmission =
  | {
      kind: 'request';
      /** The request's externalId. */
      externalId: string;
      payload: CreateRequest;
      /** Where it starts: a CSV's line (the header is line 1), a sheet's Excel row, or the record (JSON, XML; 1 for the first). */
      firstRow: number;
      /** Set when the mapping gives documents an identity of their own (`document.id`). */
      document?: DocumentRef;
    }
  | {
      kind: 'confirmation';
      /** The order id, also the `<order_id>` path segment. */
      externalId: string;
      orderId: string;
      payload: ConfirmOrder;
      firstRow: number;
    };

/** A document withdrawn in its source system (1C's `УдалениеОбъекта`), by its identity. */
export interface MappedWithdrawal {
  documentId: string;
  /** The record number where it stands. */
  row: number;
}

export type MappedItem =
  { kind: 'submission'; submission: MappedSubmission } | { kind: 'withdrawal'; withdrawal: MappedWithdrawal } | { kind: 'problem'; problem: MappingProblem };
