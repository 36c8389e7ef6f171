import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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

describe('verifySignature on any header', () => {
  // What the header means, said the plain way: `sha256=` and 64 hex digits of either case, around
  // them only whitespace; the digest, compared as bytes.
  const reference = (body: string, header: string, secret: string): string => {
    const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
    if (header === '') return 'missing';
    if (!match) return 'malformed';
    return match[1]!.toLowerCase() === signWebhookBody(secret, body).slice('sha256='.length) ? 'ok' : 'mismatch';
  };
  const hexCase = fc.constantFrom('lower', 'upper', 'mixed');
  /** A body and a header for it: any text, a signature of it (or under another key) in any case and padding, or a near miss. */
  const signed = fc.tuple(fc.string(), fc.boolean(), hexCase, fc.string({ maxLength: 2 })).map(([body, right, form, pad]) => {
    const hex = signWebhookBody(right ? 'key' : 'other', body).slice('sha256='.length);
    const cased = form === 'upper' ? hex.toUpperCase() : form === 'mixed' ? [...hex].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('') : hex;
    return { body, value: `${pad}sha256=${cased}${pad}` };
  });
  const request = fc.oneof(
    fc.record({ body: fc.string(), value: fc.string() }),
    signed,
    fc.record({ body: fc.string(), value: fc.stringMatching(/^sha256=[0-9a-fA-Fg ]{60,68}$/) }),
  );

  it('says what the plain reading says: ok, mismatch, malformed or missing', () => {
    fc.assert(
      fc.property(request, ({ body, value }) => {
        const verdict = verifySignature(Buffer.from(body), value, ['key']);
        expect(verdict.ok ? 'ok' : verdict.problem).toBe(reference(body, value, 'key'));
      }),
      { numRuns: 2000 },
    );
  });
});
