/**
 * RFC 9457 problem details and plain JSON answers, as `ApiResponse` values (decided first, written
 * later, so idempotency can store and replay them byte for byte).
 */
import { PROBLEM_TYPES } from '../platform/contract.js';
import type { ApiResponse } from './types.js';

/**
 * Problem types of the contract plus two the sandbox needs and the contract does not name yet
 * (a wrong method, and a confirmation of an order that already left the warehouse).
 */
export const SANDBOX_PROBLEM_TYPES = {
  ...PROBLEM_TYPES,
  methodNotAllowed: 'urn:problem:method-not-allowed',
  orderStateConflict: 'urn:problem:order-state-conflict',
} as const;
export type ProblemType = (typeof SANDBOX_PROBLEM_TYPES)[keyof typeof SANDBOX_PROBLEM_TYPES];

export interface FieldError {
  path: string;
  message: string;
}

export interface ProblemInit {
  type: ProblemType;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extension members (`existingRequestId`, …). */
  extra?: Record<string, unknown>;
}

export function problemResponse(init: ProblemInit): ApiResponse {
  const body = {
    type: init.type,
    title: init.title,
    status: init.status,
    detail: init.detail,
    errors: init.errors ?? [],
    ...init.extra,
  };
  return {
    status: init.status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', ...init.headers },
    body: JSON.stringify(body),
  };
}

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(value) };
}

export function validationProblem(errors: FieldError[], detail = 'The body does not match the schema.'): ApiResponse {
  return problemResponse({ type: SANDBOX_PROBLEM_TYPES.validation, title: 'Validation failed', status: 422, detail, errors });
}

export function notFoundProblem(detail: string): ApiResponse {
  return problemResponse({ type: SANDBOX_PROBLEM_TYPES.notFound, title: 'Not found', status: 404, detail });
}
