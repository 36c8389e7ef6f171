/** The admission ladder, table-tested: one good request, broken one way per row, each stopping at its rung. */
import { describe, expect, it } from 'vitest';
import { signWebhookBody } from '../../src/platform/webhook-signature.js';
import { admitWebhook, type AdmissionPolicy, type RequestHead } from '../../src/webhook/admit-webhook.js';
import { parseAllowList } from '../../src/webhook/allow-from.js';

const SECRET = 'admission-secret-1234';
const policy: AdmissionPolicy = {
  path: '/webhooks/service',
  allowList: parseAllowList(['10.0.0.0/8']),
  maxBodyBytes: 1024,
  requireSignature: true,
  secrets: [SECRET],
};
const event = { eventId: 'EVT-000001', eventType: 'order.status.changed', eventDate: '2026-06-12T10:00:00Z', orderId: 'ORD-2026-000001', status: 'shipped' };
const body = Buffer.from(JSON.stringify(event));

function head(change: Partial<RequestHead> = {}, headers: Record<string, string | undefined> = {}): RequestHead {
  return {
    target: '/webhooks/service',
    method: 'POST',
    remote: '10.1.2.3',
    stopping: false,
    ...change,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      'x-service-signature': signWebhookBody(SECRET, body),
      ...headers,
    },
  };
}

describe('admitWebhook', () => {
  it('asks for the body once the head passes, then accepts the signed event', () => {
    expect(admitWebhook(policy, head())).toEqual({ kind: 'read-body' });
    expect(admitWebhook(policy, head(), body)).toEqual({ kind: 'accept', event, text: body.toString('utf8') });
    expect(admitWebhook(policy, head({ remote: '::ffff:10.9.9.9' }), body).kind).toBe('accept');
  });

  // Plain targets skip the URL parser; these must still be read as the URL parser reads them.
  it.each([
    ['/webhooks/service?source=platform', 'read-body'],
    ['/webhooks/./service', 'read-body'],
    ['/webhooks/x/../service', 'read-body'],
    ['//webhooks/service', 'refuse'],
    ['/webhooks//service', 'refuse'],
    ['/webhooks/service/', 'refuse'],
  ])('reads the target %s as a URL path would (%s)', (target, verdict) => {
    expect(admitWebhook(policy, head({ target })).kind).toBe(verdict);
  });

  it.each<[string, RequestHead, Buffer | 'too-large' | undefined, number, string | null]>([
    ['a target that is no URL', head({ target: '//[/' }), undefined, 400, 'WEBHOOK_REQUEST_INVALID'],
    ['another path', head({ target: '/elsewhere' }), undefined, 404, null],
    ['GET', head({ method: 'GET' }), undefined, 405, null],
    ['a source outside allowFrom', head({ remote: '192.168.0.1' }), undefined, 403, 'WEBHOOK_FORBIDDEN_SOURCE'],
    ['no source address', head({ remote: undefined }), undefined, 403, 'WEBHOOK_FORBIDDEN_SOURCE'],
    ['while stopping', head({ stopping: true }), undefined, 503, 'WEBHOOK_STOPPING'],
    ['text/plain', head({}, { 'content-type': 'text/plain' }), undefined, 415, 'WEBHOOK_MEDIA_TYPE'],
    ['no content type', head({}, { 'content-type': undefined }), undefined, 415, 'WEBHOOK_MEDIA_TYPE'],
    ['a declared length over the limit', head({}, { 'content-length': '1025' }), undefined, 413, 'WEBHOOK_TOO_LARGE'],
    ['a body that outgrew the limit', head({}, { 'content-length': undefined }), 'too-large', 413, 'WEBHOOK_TOO_LARGE'],
    ['no signature', head({}, { 'x-service-signature': undefined }), body, 401, 'WEBHOOK_SIGNATURE_INVALID'],
    ['a malformed signature', head({}, { 'x-service-signature': 'sha1=abc' }), body, 401, 'WEBHOOK_SIGNATURE_INVALID'],
    ['a signature of another body', head(), Buffer.from(JSON.stringify({ ...event, status: 'cancelled' })), 401, 'WEBHOOK_SIGNATURE_INVALID'],
    ['signed, not JSON', head({}, { 'x-service-signature': signWebhookBody(SECRET, '{"eventId":') }), Buffer.from('{"eventId":'), 400, 'WEBHOOK_BODY_INVALID'],
    ['signed, not an event', head({}, { 'x-service-signature': signWebhookBody(SECRET, '[1]') }), Buffer.from('[1]'), 400, 'WEBHOOK_BODY_INVALID'],
  ])('%s → %i %s', (_name, request, read, status, code) => {
    expect(admitWebhook(policy, request, read)).toMatchObject({ kind: 'refuse', status, code });
  });

  it('checks the signature before reading the body as JSON, and names the fields a bad event breaks', () => {
    const unsigned = admitWebhook(policy, head({}, { 'x-service-signature': undefined }), Buffer.from('not json'));
    expect(unsigned).toMatchObject({ status: 401, signatureProblem: 'missing' });
    const noOrder = JSON.stringify({ ...event, orderId: undefined });
    const refused = admitWebhook(policy, head({}, { 'x-service-signature': signWebhookBody(SECRET, noOrder) }), Buffer.from(noOrder));
    expect(refused).toMatchObject({ status: 400, errors: [{ path: '$.orderId' }] });
  });

  it('admits unsigned events only when signatures are not required', () => {
    const open = { ...policy, requireSignature: false };
    expect(admitWebhook(open, head({}, { 'x-service-signature': undefined }), body).kind).toBe('accept');
  });
});
