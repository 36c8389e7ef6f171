/** The checks of an API call made before its body is read, in a strict platform's order. */
import { describe, expect, it } from 'vitest';
import type { ApiRoute } from '../../src/sandbox/api-routes.js';
import { refuseUnread } from '../../src/sandbox/handle-api-call.js';

const TOKENS = { token: 'buyer-token', supplierToken: 'supplier-token' };
const CREATE: ApiRoute = { operation: 'create', token: 'buyer-token', role: 'buyer' };
const JSON_POST = { method: 'POST', contentType: 'application/json' };

describe('refuseUnread', () => {
  it.each([
    ['a JSON POST with the buyer token', JSON_POST, CREATE, undefined],
    ['another method', { ...JSON_POST, method: 'PUT' }, CREATE, 405],
    ['an unknown token', JSON_POST, { ...CREATE, token: 'guess' }, 401],
    ["the supplier's token on the buyer's route", JSON_POST, { ...CREATE, token: 'supplier-token' }, 403],
    ['a body that is not JSON', { ...JSON_POST, contentType: 'text/plain' }, CREATE, 415],
    ['another method with an unknown token: the method is checked first', { method: 'GET', contentType: undefined }, { ...CREATE, token: 'guess' }, 405],
    ['an unknown token and no JSON: the token is checked first', { ...JSON_POST, contentType: undefined }, { ...CREATE, token: 'guess' }, 401],
  ] as const)('%s → %s', (_, req, route, status) => {
    expect(refuseUnread(req, route, TOKENS)?.status).toBe(status);
  });

  it('tells the caller which method to use', () => {
    expect(refuseUnread({ method: 'GET', contentType: undefined }, CREATE, TOKENS)?.headers).toMatchObject({ allow: 'POST' });
  });
});
