import { Readable } from 'node:stream';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { PROBLEM_TYPES } from '../../src/platform/contract.js';
import { withSandbox } from '../helpers/with-sandbox.js';
import { confirmUrl, createAccepted, createUrl, post } from '../helpers/sandbox-calls.js';
import { validConfirmation, validRequest } from '../helpers/fixtures.js';

describe('sandbox: HTTP checks before any processing', () => {
  it('answers an unknown token with 401 and creates nothing', async () => {
    await withSandbox({}, async (sandbox) => {
      const reply = await post(createUrl(sandbox, 'wrong-token'), validRequest());
      expect(reply.status).toBe(401);
      expect(reply.json.type).toBe(PROBLEM_TYPES.unauthorized);
      expect(sandbox.requests()).toHaveLength(0);
    });
  });

  it('answers 403 for the supplier token on create and the buyer token on confirm', async () => {
    await withSandbox({}, async (sandbox) => {
      const onCreate = await post(createUrl(sandbox, sandbox.supplierToken), validRequest());
      expect(onCreate.status).toBe(403);
      expect(onCreate.json.type).toBe(PROBLEM_TYPES.forbidden);
      const { orderId } = await createAccepted(sandbox);
      const onConfirm = await post(confirmUrl(sandbox, orderId, sandbox.token), validConfirmation());
      expect(onConfirm.status).toBe(403);
      expect(sandbox.order(orderId)?.status).toBe('created');
    });
  });

  it('answers 405 for another method on an API path, with Allow: POST', async () => {
    await withSandbox({}, async (sandbox) => {
      const reply = await post(createUrl(sandbox), undefined, { method: 'GET' });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('POST');
      const put = await post(createUrl(sandbox), validRequest(), { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(sandbox.requests()).toHaveLength(0);
    });
  });

  it('answers 404 for an unknown path and records it with the token masked', async () => {
    await withSandbox({}, async (sandbox) => {
      const reply = await post(`${sandbox.url}/api-gateway/api/v1/${sandbox.token}/nothing`, validRequest());
      expect(reply.status).toBe(404);
      expect(reply.json.type).toBe(PROBLEM_TYPES.notFound);
      expect(sandbox.calls()[0]).toMatchObject({ method: 'POST', path: '/api-gateway/api/v1/<token>/nothing', status: 404 });
      expect(JSON.stringify(sandbox.calls())).not.toContain(`/v1/${sandbox.token}/`);
    });
  });

  it('answers 415 unless the body is application/json (charset optional, UTF-8 only)', async () => {
    await withSandbox({}, async (sandbox) => {
      const plain = await post(createUrl(sandbox), validRequest(), { contentType: 'text/plain' });
      expect(plain.status).toBe(415);
      expect(plain.json.type).toBe(PROBLEM_TYPES.unsupportedMediaType);
      const latin = await post(createUrl(sandbox), validRequest(), { contentType: 'application/json; charset=windows-1251' });
      expect(latin.status).toBe(415);
      const bare = await post(createUrl(sandbox), validRequest(), { contentType: 'application/json' });
      expect(bare.status).toBe(201);
    });
  });

  it('answers 413 for a body over maxBodyBytes', async () => {
    await withSandbox({ maxBodyBytes: 2_000 }, async (sandbox) => {
      const reply = await post(createUrl(sandbox), validRequest({ comment: 'x'.repeat(1_990) }));
      expect(reply.status).toBe(413);
      expect(reply.json.type).toBe(PROBLEM_TYPES.tooLarge);
      expect(sandbox.requests()).toHaveLength(0);
      const small = await post(createUrl(sandbox), validRequest());
      expect(small.status).toBe(201);
    });
  });

  it('answers 413 for a chunked body (no Content-Length) over maxBodyBytes', async () => {
    await withSandbox({ maxBodyBytes: 1_000 }, async (sandbox) => {
      async function* chunks(): AsyncGenerator<Buffer> {
        for (let i = 0; i < 5; i += 1) yield Buffer.from(' '.repeat(400));
        yield Buffer.from(JSON.stringify(validRequest()));
      }
      const response = await request(createUrl(sandbox), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k-chunked' },
        body: Readable.from(chunks()),
      });
      await response.body.dump();
      expect(response.statusCode).toBe(413);
    });
  });

  it('answers 400 for malformed JSON', async () => {
    await withSandbox({}, async (sandbox) => {
      const reply = await post(createUrl(sandbox), undefined, { rawBody: '{"externalId": "A-1",' });
      expect(reply.status).toBe(400);
      expect(reply.json.type).toBe(PROBLEM_TYPES.malformedJson);
      expect(sandbox.calls()[0]?.body).toBe('{"externalId": "A-1",');
    });
  });

  it('records each API call with method, masked path, headers, body and status', async () => {
    await withSandbox({}, async (sandbox) => {
      const body = validRequest();
      await post(createUrl(sandbox), body, { key: 'key-1' });
      const [call] = sandbox.calls();
      expect(call).toMatchObject({ method: 'POST', path: '/api-gateway/api/v1/<token>/requests', body, status: 201, replayed: false });
      expect(call?.headers['idempotency-key']).toBe('key-1');
    });
  });
});
