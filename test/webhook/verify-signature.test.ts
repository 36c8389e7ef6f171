import { describe, expect, it } from 'vitest';
import { sign } from '@octokit/webhooks-methods';
import { signWebhookBody } from '../../src/platform/webhook-signature.js';
import { verifySignature } from '../../src/webhook/verify-signature.js';

const GITHUB_SECRET = "It's a Secret to Everybody";
const GITHUB_PAYLOAD = 'Hello, World!';
const GITHUB_SIGNATURE = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

describe('signBody', () => {
  it("reproduces GitHub's published vector", () => {
    expect(signWebhookBody(GITHUB_SECRET, GITHUB_PAYLOAD)).toBe(GITHUB_SIGNATURE);
  });

  it('agrees with an independent signer (@octokit/webhooks-methods)', async () => {
    const body = JSON.stringify({ eventId: 'EVT-000001', eventType: 'order.status.changed', status: 'отгружен' });
    expect(signWebhookBody('s3cret-value', body)).toBe(await sign('s3cret-value', body));
  });
});

describe('verifySignature', () => {
  const body = Buffer.from(GITHUB_PAYLOAD);
  const cases: { name: string; header: string | string[] | undefined; secrets: string[]; expected: ReturnType<typeof verifySignature> }[] = [
    { name: 'the published vector', header: GITHUB_SIGNATURE, secrets: [GITHUB_SECRET], expected: { ok: true, secretIndex: 0 } },
    {
      name: 'upper-case hex',
      header: 'sha256=' + GITHUB_SIGNATURE.slice(7).toUpperCase(),
      secrets: [GITHUB_SECRET],
      expected: { ok: true, secretIndex: 0 },
    },
    { name: 'the second secret while rotating', header: GITHUB_SIGNATURE, secrets: ['old-secret', GITHUB_SECRET], expected: { ok: true, secretIndex: 1 } },
    { name: 'a missing header', header: undefined, secrets: [GITHUB_SECRET], expected: { ok: false, problem: 'missing' } },
    { name: 'an empty header', header: '', secrets: [GITHUB_SECRET], expected: { ok: false, problem: 'missing' } },
    { name: 'a repeated header', header: [GITHUB_SIGNATURE, GITHUB_SIGNATURE], secrets: [GITHUB_SECRET], expected: { ok: false, problem: 'malformed' } },
    { name: 'no sha256= prefix', header: GITHUB_SIGNATURE.slice(7), secrets: [GITHUB_SECRET], expected: { ok: false, problem: 'malformed' } },
    { name: 'sha1 scheme', header: 'sha1=' + GITHUB_SIGNATURE.slice(7), secrets: [GITHUB_SECRET], expected: { ok: false, problem: 'malformed' } },
    { name: 'a short digest', header: GITHUB_SIGNATURE.slice(0, -2), secrets: [GITHUB_SECRET], expected: { ok: false, problem: 'malformed' } },
    { name: 'a non-hex digest', header: GITHUB_SIGNATURE.slice(0, -1) + 'g', secrets: [GITHUB_SECRET], expected: { ok: false, problem: 'malformed' } },
    { name: 'a wrong secret', header: GITHUB_SIGNATURE, secrets: ['not the secret'], expected: { ok: false, problem: 'mismatch' } },
    { name: 'one changed digit', header: GITHUB_SIGNATURE.slice(0, -1) + '0', secrets: [GITHUB_SECRET], expected: { ok: false, problem: 'mismatch' } },
    { name: 'no secrets configured', header: GITHUB_SIGNATURE, secrets: [], expected: { ok: false, problem: 'mismatch' } },
  ];
  it.each(cases)('$name', ({ header, secrets, expected }) => {
    expect(verifySignature(body, header, secrets)).toEqual(expected);
  });

  it('refuses a tampered body', () => {
    expect(verifySignature(Buffer.from('Hello, World?'), GITHUB_SIGNATURE, [GITHUB_SECRET])).toEqual({ ok: false, problem: 'mismatch' });
  });

  it('verifies the exact bytes, not a re-serialisation', () => {
    const raw = '{"eventId":"EVT-000001",  "status":"shipped"}';
    const header = signWebhookBody('k3y-value', raw);
    expect(verifySignature(Buffer.from(raw), header, ['k3y-value']).ok).toBe(true);
    expect(verifySignature(Buffer.from(JSON.stringify(JSON.parse(raw))), header, ['k3y-value']).ok).toBe(false);
  });
});
