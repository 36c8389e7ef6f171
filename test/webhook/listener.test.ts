import { describe, expect, it } from 'vitest';
import { signWebhookBody } from '../../src/platform/webhook-signature.js';
import { getEvent, getOrderStatus } from '../../src/store/events.js';
import type { Metrics } from '../../src/metrics/metrics.js';
import { buildEvent, countRows, getPath, postWebhook, withListener, SECRET } from '../helpers/with-listener.js';
import { captureLogger } from '../helpers/raw-client.js';

describe('webhook listener', () => {
  it('stores a valid event with its status and one export row, then answers 200 {received:true}', async () => {
    await withListener({}, async ({ url, db, stored }) => {
      const event = buildEvent();
      const res = await postWebhook(url, event);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ received: true });
      expect(getEvent(db, event.eventId as string)).toMatchObject({ eventType: 'order.status.changed', applied: 1, body: JSON.stringify(event) });
      expect(getOrderStatus(db, 'ORD-2026-000042')).toMatchObject({ status: 'shipped', eventId: event.eventId });
      const exports = db.prepare('SELECT channel, source_key, record, state FROM exports').all() as { record: string }[];
      expect(exports).toHaveLength(1);
      expect(exports[0]).toMatchObject({ channel: 'status', source_key: event.eventId, state: 'pending' });
      expect(JSON.parse(exports[0]!.record)).toMatchObject({
        eventId: event.eventId,
        orderId: 'ORD-2026-000042',
        status: 'shipped',
        eventDate: event.eventDate,
      });
      expect(stored.count).toBe(1);
    });
  });

  it('takes the same event five times in a row and five times at once as one', async () => {
    await withListener({}, async ({ url, db }) => {
      const event = buildEvent();
      for (let i = 0; i < 5; i += 1) expect((await postWebhook(url, event)).status).toBe(200);
      const other = buildEvent({ orderId: 'ORD-2026-000043' });
      const answers = await Promise.all(Array.from({ length: 5 }, () => postWebhook(url, other)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(countRows(db, 'events')).toBe(2);
      expect(countRows(db, 'exports')).toBe(2);
    });
  });

  it('stores many concurrent events, grouped into transactions', async () => {
    await withListener({}, async ({ url, db }) => {
      const events = Array.from({ length: 40 }, (_, i) => buildEvent({ orderId: `ORD-2026-${String(100 + i).padStart(6, '0')}` }));
      const answers = await Promise.all(events.map((e) => postWebhook(url, e)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(countRows(db, 'events')).toBe(40);
      expect(countRows(db, 'exports')).toBe(40);
    });
  });

  const refusals: { name: string; status: number; code?: string; send: (url: string) => ReturnType<typeof postWebhook> }[] = [
    {
      name: 'a bad signature',
      status: 401,
      code: 'WEBHOOK_SIGNATURE_INVALID',
      send: (url) => postWebhook(url, buildEvent(), { headers: { 'x-service-signature': 'sha256=' + '0'.repeat(64) } }),
    },
    {
      name: 'a malformed signature',
      status: 401,
      code: 'WEBHOOK_SIGNATURE_INVALID',
      send: (url) => postWebhook(url, buildEvent(), { headers: { 'x-service-signature': 'abc' } }),
    },
    {
      name: 'no signature header',
      status: 401,
      code: 'WEBHOOK_SIGNATURE_INVALID',
      send: (url) => postWebhook(url, buildEvent(), { headers: { 'x-service-signature': undefined } }),
    },
    { name: 'a wrong secret', status: 401, code: 'WEBHOOK_SIGNATURE_INVALID', send: (url) => postWebhook(url, buildEvent(), { secret: 'another-secret' }) },
    {
      name: 'a tampered body',
      status: 401,
      code: 'WEBHOOK_SIGNATURE_INVALID',
      send: (url) => {
        const event = buildEvent();
        const original = JSON.stringify(event);
        const tampered = JSON.stringify({ ...event, status: 'cancelled' });
        return postWebhook(url, null, { body: tampered, headers: { 'x-service-signature': signatureOf(original) } });
      },
    },
    { name: 'an oversized body', status: 413, code: 'WEBHOOK_TOO_LARGE', send: (url) => postWebhook(url, buildEvent({ padding: 'x'.repeat(4096) })) },
    {
      name: 'an oversized chunked body',
      status: 413,
      code: 'WEBHOOK_TOO_LARGE',
      send: (url) => postWebhook(url, buildEvent({ padding: 'x'.repeat(4096) }), { chunked: true }),
    },
    { name: 'malformed JSON', status: 400, code: 'WEBHOOK_BODY_INVALID', send: (url) => postWebhook(url, null, { body: '{"eventId": "EVT-000001",' }) },
    { name: 'a schema violation', status: 400, code: 'WEBHOOK_BODY_INVALID', send: (url) => postWebhook(url, buildEvent({ eventDate: 'yesterday' })) },
    { name: 'a status change without status', status: 400, code: 'WEBHOOK_BODY_INVALID', send: (url) => postWebhook(url, buildEvent({ status: undefined })) },
    {
      name: 'text/plain',
      status: 415,
      code: 'WEBHOOK_MEDIA_TYPE',
      send: (url) => postWebhook(url, buildEvent(), { headers: { 'content-type': 'text/plain' } }),
    },
    {
      name: 'no content type',
      status: 415,
      code: 'WEBHOOK_MEDIA_TYPE',
      send: (url) => postWebhook(url, buildEvent(), { headers: { 'content-type': undefined } }),
    },
    { name: 'an unknown path', status: 404, send: (url) => postWebhook(url, buildEvent(), { path: '/webhooks/other' }) },
    { name: 'GET on the path', status: 405, send: (url) => postWebhook(url, null, { method: 'GET', body: '' }) },
    { name: 'PUT on the path', status: 405, send: (url) => postWebhook(url, buildEvent(), { method: 'PUT' }) },
  ];
  it.each(refusals)('answers $status to $name and stores nothing', async ({ status, code, send }) => {
    await withListener({ config: { maxBodyBytes: 1024 } }, async ({ url, db, stored }) => {
      const res = await send(url);
      expect(res.status).toBe(status);
      if (code) expect(res.json).toMatchObject({ received: false, code });
      expect(countRows(db, 'events')).toBe(0);
      expect(countRows(db, 'exports')).toBe(0);
      expect(stored.count).toBe(0);
    });
  });

  it('accepts application/json in any letter case and with parameters', async () => {
    await withListener({}, async ({ url, db }) => {
      expect((await postWebhook(url, buildEvent(), { headers: { 'content-type': 'Application/JSON' } })).status).toBe(200);
      expect(
        (await postWebhook(url, buildEvent({ orderId: 'ORD-2026-000050' }), { headers: { 'content-type': 'application/json;charset=UTF-8' } })).status,
      ).toBe(200);
      expect(countRows(db, 'events')).toBe(2);
    });
  });

  it('accepts a signature made with the second secret while rotating', async () => {
    await withListener({ config: { secrets: ['new-secret-2026', SECRET] } }, async ({ url, db }) => {
      expect((await postWebhook(url, buildEvent())).status).toBe(200);
      expect((await postWebhook(url, buildEvent({ orderId: 'ORD-2026-000051' }), { secret: 'new-secret-2026' })).status).toBe(200);
      expect(countRows(db, 'events')).toBe(2);
    });
  });

  it('skips the signature check when requireSignature is off', async () => {
    await withListener({ config: { requireSignature: false, secrets: [] } }, async ({ url, db }) => {
      expect((await postWebhook(url, buildEvent(), { headers: { 'x-service-signature': undefined } })).status).toBe(200);
      expect(countRows(db, 'events')).toBe(1);
    });
  });

  it('refuses sources outside allowFrom with 403 and accepts those inside', async () => {
    await withListener({ config: { allowFrom: ['10.0.0.0/8'] } }, async ({ url, db }) => {
      expect((await postWebhook(url, buildEvent())).status).toBe(403);
      expect(countRows(db, 'events')).toBe(0);
    });
    await withListener({ config: { allowFrom: ['127.0.0.0/8', '::1'] } }, async ({ url, db }) => {
      expect((await postWebhook(url, buildEvent())).status).toBe(200);
      expect(countRows(db, 'events')).toBe(1);
    });
  });

  it('stores an unknown event type without exporting it', async () => {
    await withListener({}, async ({ url, db }) => {
      const event = buildEvent({ eventType: 'delivery.created', orderId: undefined, status: undefined, deliveryId: 'D-1' });
      const res = await postWebhook(url, event);
      expect(res.status).toBe(200);
      expect(getEvent(db, event.eventId as string)).toMatchObject({ eventType: 'delivery.created', applied: 0 });
      expect(countRows(db, 'exports')).toBe(0);
      expect(countRows(db, 'order_statuses')).toBe(0);
    });
  });

  it('keeps an older event without rolling the status back or exporting it', async () => {
    await withListener({}, async ({ url, db }) => {
      const newer = buildEvent({ status: 'delivered', eventDate: '2026-06-12T12:00:00Z' });
      const older = buildEvent({ status: 'shipped', eventDate: '2026-06-12T14:00:00+03:00' }); // 11:00Z
      expect((await postWebhook(url, newer)).status).toBe(200);
      expect((await postWebhook(url, older)).status).toBe(200);
      expect(getOrderStatus(db, 'ORD-2026-000042')).toMatchObject({ status: 'delivered', eventId: newer.eventId });
      expect(getEvent(db, older.eventId as string)).toMatchObject({ applied: 0 });
      expect(countRows(db, 'events')).toBe(2);
      expect(countRows(db, 'exports')).toBe(1);
    });
  });

  it('on equal dates lets the larger event number win, whatever the arrival order', async () => {
    await withListener({}, async ({ url, db }) => {
      const date = '2026-06-12T12:00:00Z';
      const later = { eventId: 'EVT-000902', eventType: 'order.status.changed', eventDate: date, orderId: 'ORD-2026-000077', status: 'delivered' };
      const earlier = { ...later, eventId: 'EVT-000901', status: 'shipped' };
      expect((await postWebhook(url, later)).status).toBe(200);
      expect((await postWebhook(url, earlier)).status).toBe(200);
      expect(getOrderStatus(db, 'ORD-2026-000077')).toMatchObject({ status: 'delivered', eventId: 'EVT-000902' });
      expect(getEvent(db, 'EVT-000901')).toMatchObject({ applied: 0 });
      expect(countRows(db, 'exports')).toBe(1);
      // The other order of arrival: the larger number, same date, comes second and is applied.
      const first = { ...earlier, eventId: 'EVT-000911', orderId: 'ORD-2026-000078' };
      const second = { ...later, eventId: 'EVT-000912', orderId: 'ORD-2026-000078' };
      expect((await postWebhook(url, first)).status).toBe(200);
      expect((await postWebhook(url, second)).status).toBe(200);
      expect(getOrderStatus(db, 'ORD-2026-000078')).toMatchObject({ status: 'delivered', eventId: 'EVT-000912' });
      expect(getEvent(db, 'EVT-000911')).toMatchObject({ applied: 1 });
      expect(getEvent(db, 'EVT-000912')).toMatchObject({ applied: 1 });
      expect(countRows(db, 'exports')).toBe(3);
    });
  });

  it('answers 503 while the store fails, and stores the repeat once it works again', async () => {
    await withListener({}, async ({ url, db }) => {
      const event = buildEvent();
      db.exec('ALTER TABLE events RENAME TO events_away');
      const failed = await postWebhook(url, event);
      expect(failed.status).toBe(503);
      expect(failed.json).toMatchObject({ code: 'WEBHOOK_STORE_FAILED' });
      db.exec('ALTER TABLE events_away RENAME TO events');
      expect((await postWebhook(url, event)).status).toBe(200);
      expect(countRows(db, 'events')).toBe(1);
      expect(countRows(db, 'exports')).toBe(1);
    });
  });

  it('answers 503 when the store is closed', async () => {
    await withListener({}, async ({ url, db }) => {
      db.close();
      expect((await postWebhook(url, buildEvent())).status).toBe(503);
      expect((await getPath(url, '/healthz')).status).toBe(200);
    });
  });

  it('answers 500 WEBHOOK_INTERNAL_ERROR when its own code fails after the store, logs it, and takes the repeat as a duplicate', async () => {
    const { logger, lines } = captureLogger();
    let failures = 1;
    // The counter of the outcome fails once: the event is stored and durable, the answer is not sent.
    const metrics = {
      webhookEvents: {
        inc: () => {
          if (failures-- > 0) throw new Error('counter broke');
        },
      },
    } as unknown as Pick<Metrics, 'webhookEvents'>;
    await withListener({ deps: { logger, metrics } }, async ({ url, db }) => {
      const event = buildEvent();
      const failed = await postWebhook(url, event);
      expect(failed.status).toBe(500);
      expect(failed.json).toMatchObject({ received: false, code: 'WEBHOOK_INTERNAL_ERROR' });
      const logged = lines().find((line) => line.code === 'WEBHOOK_INTERNAL_ERROR');
      expect(logged).toMatchObject({ level: 'error' });
      expect(String(logged?.msg)).toContain('counter broke');
      // The platform sends it again: stored once, answered 200.
      expect((await postWebhook(url, event)).status).toBe(200);
      expect(countRows(db, 'events')).toBe(1);
      expect(countRows(db, 'exports')).toBe(1);
    });
  });

  it('fails only the bad event of a batch', async () => {
    await withListener({}, async ({ url, db }) => {
      db.exec(`CREATE TRIGGER refuse_one BEFORE INSERT ON exports WHEN json_extract(NEW.record, '$.orderId') = 'ORD-2026-000666'
               BEGIN SELECT RAISE(ABORT, 'refused by test'); END`);
      const good = Array.from({ length: 5 }, (_, i) => buildEvent({ orderId: `ORD-2026-${String(200 + i).padStart(6, '0')}` }));
      const bad = buildEvent({ orderId: 'ORD-2026-000666' });
      const answers = await Promise.all([...good, bad].map((e) => postWebhook(url, e)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 503]);
      expect(countRows(db, 'events')).toBe(5);
      expect(getEvent(db, bad.eventId as string)).toBeUndefined();
      expect(getOrderStatus(db, 'ORD-2026-000666')).toBeUndefined();
    });
  });

  it('serves /healthz for a reverse proxy; /readyz lives on the admin listener', async () => {
    await withListener({}, async ({ url }) => {
      const health = await getPath(url, '/healthz');
      expect(health).toMatchObject({ status: 200, json: { status: 'ok' } });
      expect((await getPath(url, '/readyz')).status).toBe(404);
    });
  });

  it('stops idempotently and refuses connections afterwards', async () => {
    await withListener({}, async ({ url, listener }) => {
      expect((await postWebhook(url, buildEvent())).status).toBe(200);
      await Promise.all([listener.stop(), listener.stop()]);
      await listener.stop();
      expect(listener.address).toBeNull();
      await expect(postWebhook(url, buildEvent())).rejects.toThrow(/ECONNREFUSED/);
    });
  });
});

function signatureOf(body: string): string {
  return signWebhookBody(SECRET, body);
}

describe('webhook listener body reading', () => {
  it('accepts a chunked body within the limit', async () => {
    await withListener({}, async ({ url, db }) => {
      expect((await postWebhook(url, buildEvent(), { chunked: true })).status).toBe(200);
      expect(countRows(db, 'events')).toBe(1);
    });
  });
});
