import { describe, expect, it } from 'vitest';
import { createRequestResultSchema, PROBLEM_TYPES, problemDetailsSchema } from '../../src/platform/contract.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { createUrl, post } from '../helpers/sandbox-calls.js';
import { validRequest } from '../helpers/fixtures.js';

describe('sandbox: create request', () => {
  it('accepts a valid request with 201, numbered ids, an order, and echoes X-Request-Id', async () => {
    await withSandbox({}, async (sandbox) => {
      const body = validRequest();
      const reply = await post(createUrl(sandbox), body, { headers: { 'x-request-id': '4b1f3c1e-0000-4000-8000-000000000001' } });
      expect(reply.status).toBe(201);
      expect(reply.headers['x-request-id']).toBe('4b1f3c1e-0000-4000-8000-000000000001');
      const result = createRequestResultSchema.parse(reply.json);
      expect(result).toEqual({ id: 'PRC-REQ-000001', externalId: body.externalId, status: 'accepted', createdAt: expect.any(String) });
      expect(Object.keys(reply.json).sort()).toEqual(['createdAt', 'externalId', 'id', 'status']);

      const second = await post(createUrl(sandbox), validRequest());
      expect(second.json.id).toBe('PRC-REQ-000002');

      const [first] = sandbox.requests();
      expect(first?.order?.id).toMatch(new RegExp(`^ORD-${new Date().getUTCFullYear()}-000001$`));
      expect(first?.order?.status).toBe('created');
      expect(first?.order?.lineIds).toEqual(['1', '2']);
    });
  });

  it('answers schema violations with 422 problem details naming each field', async () => {
    await withSandbox({}, async (sandbox) => {
      const body = validRequest({ customer: { inn: '12ab', name: 'X' }, delivery: { city: 'Moscow', address: 'A', desiredDate: '2030-02-30' } });
      const reply = await post(createUrl(sandbox), body);
      expect(reply.status).toBe(422);
      expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
      const problem = problemDetailsSchema.parse(reply.json);
      expect(problem.type).toBe(PROBLEM_TYPES.validation);
      expect(problem.status).toBe(422);
      expect(problem.title).toBeTruthy();
      expect(problem.detail).toBeTruthy();
      expect(problem.errors?.map((e) => e.path).sort()).toEqual(['$.customer.inn', '$.delivery.desiredDate']);
      expect(sandbox.requests()).toHaveLength(0);
    });
  });

  it('refuses a second externalId under a new key with 409 naming the existing request', async () => {
    await withSandbox({}, async (sandbox) => {
      const body = validRequest();
      const first = await post(createUrl(sandbox), body);
      const again = await post(createUrl(sandbox), { ...body, comment: 'changed' });
      expect(again.status).toBe(409);
      expect(again.json.type).toBe(PROBLEM_TYPES.duplicateExternalId);
      expect(again.json.existingRequestId).toBe(first.json.id);
      expect(sandbox.requests()).toHaveLength(1);
    });
  });
});
