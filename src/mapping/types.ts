/**
 * What the mapping stage hands to intake: a stream of mapped submissions and problems.
 * Intake records the submissions and writes the problems into the file's error report.
 */
import type { ConfirmOrder, CreateRequest } from '../platform/contract.js';
import type { MappingProblem } from '../shared/types.js';

export const SUBMISSION_KIND = { request: 'request', confirmation: 'confirmation' } as const;
export type SubmissionKind = (typeof SUBMISSION_KIND)[keyof typeof SUBMISSION_KIND];

/** One valid payload, ready to record in the outbox. */
export type MappedSubmission =
  | {
      kind: 'request';
      /** The request's externalId. */
      externalId: string;
      payload: CreateRequest;
      /** 1-based data row (CSV, header excluded) or record number (JSON) where it starts. */
      firstRow: number;
    }
  | {
      kind: 'confirmation';
      /** The order id, also the `<order_id>` path segment. */
      externalId: string;
      orderId: string;
      payload: ConfirmOrder;
      firstRow: number;
    };

export type MappedItem = { kind: 'submission'; submission: MappedSubmission } | { kind: 'problem'; problem: MappingProblem };
