/**
 * 1C's documents seen again, intake side (`intake/decide-document.ts`): a real exchange folder, the
 * real store and the shipped mapping; 1C's messages as УТ 11.5 writes them. An order is known by
 * its identity (`Ссылка`), never by its number: the same number in two years is two orders, a
 * renumbered order is one; an order changed or withdrawn after it may have reached the platform
 * is a notice for a person, one still waiting is replaced or withdrawn.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openNoticesOfFlow, type DocumentNotice } from '../../src/store/document-notices.js';
import type { Db } from '../../src/store/open-store.js';
import { NO_WAIT } from '../helpers/fixtures.js';
import { NODE, PEER, PEER_MESSAGE, edMessage, edOrder, edWithdrawal, refOf, type EdOrderInput } from '../helpers/enterprisedata.js';
import { withIntake, type IntakeFixture } from '../helpers/with-intake.js';

const MAPPING = path.resolve('config/mappings/enterprisedata-orders.yaml');
const withExchange = <T>(fn: (f: IntakeFixture) => Promise<T>) =>
  withIntake(NO_WAIT, fn, { mappingFile: MAPPING, flow: { enterpriseData: { node: NODE, peer: PEER } } });

let messageNo = 0;
/** 1C's next data message, holding `body`, taken by the intake. */
async function send(f: IntakeFixture, ...body: string[]): Promise<void> {
  messageNo += 1;
  await fs.writeFile(path.join(f.inbox, PEER_MESSAGE), edMessage({ version: '1.11', no: messageNo, body }));
  await f.intake.scanNow();
}

const order = (input: Partial<EdOrderInput> & { number: string }): string => edOrder('1.11', { contact: 'Сидорова А.В.', ...input });

/** The delivery stage claimed the row once (so an attempt may have reached the platform), and the platform took it. */
function sent(db: Db, number: string, platformId = 'PRC-REQ-000001'): void {
  db.prepare(`UPDATE submissions SET state = 'accepted', first_claimed_at = 1, platform_id = ?, finished_at = 1 WHERE document_number = ?`).run(
    platformId,
    number,
  );
}

const rows = (f: IntakeFixture) =>
  f.submissions().map((s) => ({
    id: s.dedupeKey,
    number: s.documentNumber,
    externalId: s.externalId,
    state: s.state,
    payload: JSON.parse(s.payload) as Record<string, unknown>,
  }));
const notices = (f: IntakeFixture): DocumentNotice[] => openNoticesOfFlow(f.db, 'requests', 100).rows;
/** The notes of the last message's report about its documents (not what the message itself was taken as). */
const notesOf = async (f: IntakeFixture) =>
  (JSON.parse(f.files()[0]!.report ?? '{"notes":[]}') as { notes: { row: number | null; message: string }[] }).notes
    .filter((note) => note.row !== null)
    .map((note) => note.message);

describe('an order is its identity, not its number', () => {
  it('the same number in two years is two orders, each sent under its own externalId', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ТДУТ-000012', ref: refOf('2029-12'), date: '2029-12-20T10:00:00' }));
      sent(f.db, 'ТДУТ-000012');
      await send(f, order({ number: 'ТДУТ-000012', ref: refOf('2030-01'), date: '2030-01-10T10:00:00', lines: [{ name: 'Скрепки' }] }));
      expect(rows(f).map((r) => [r.id, r.number, r.externalId, r.state])).toEqual([
        [refOf('2029-12'), 'ТДУТ-000012', `ТДУТ-000012 ${refOf('2029-12')}`, 'accepted'],
        [refOf('2030-01'), 'ТДУТ-000012', `ТДУТ-000012 ${refOf('2030-01')}`, 'pending'],
      ]);
      expect(notices(f)).toEqual([]);
    });
  });

  it('a renumbered order that was sent: only the new number is recorded, nothing is sent again', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ТДУТ-000012', ref: refOf('A') }));
      sent(f.db, 'ТДУТ-000012');
      await send(f, order({ number: 'ТДУТ-000003', ref: refOf('A'), date: '2031-01-05T10:00:00' }));
      expect(rows(f).map((r) => [r.number, r.externalId, r.state])).toEqual([['ТДУТ-000003', `ТДУТ-000012 ${refOf('A')}`, 'accepted']]);
      expect(await notesOf(f)).toEqual([expect.stringContaining('ТДУТ-000003 was renumbered or redated in 1C after it was sent as PRC-REQ-000001')]);
      expect(notices(f)).toEqual([]);
    });
  });

  it('a renumbered order still waiting is sent as it is now, once', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ТДУТ-000012', ref: refOf('A') }));
      await send(f, order({ number: 'ТДУТ-000003', ref: refOf('A') }));
      expect(rows(f).map((r) => [r.number, r.externalId, r.state])).toEqual([['ТДУТ-000003', `ТДУТ-000003 ${refOf('A')}`, 'pending']]);
    });
  });
});

describe('an order changed in 1C', () => {
  it('still waiting and never claimed: the waiting request is replaced, under the same key', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-1', lines: [{ name: 'Бумага', quantity: '10' }] }));
      const key = f.submissions()[0]!.idempotencyKey;
      await send(f, order({ number: 'ЗП-1', lines: [{ name: 'Бумага', quantity: '15' }] }));
      const [row] = f.submissions();
      expect(f.submissions()).toHaveLength(1);
      expect(row).toMatchObject({ state: 'pending', idempotencyKey: key, attempts: 0 });
      expect(JSON.parse(row!.payload).items).toEqual([{ lineId: '1', name: 'Бумага', quantity: 15, unit: 'шт' }]);
      expect(await notesOf(f)).toEqual([expect.stringContaining('ЗП-1 was changed before it was sent: the waiting request now holds the current version')]);
      expect(notices(f)).toEqual([]);
    });
  });

  it('once claimed (it may have reached the platform): not a second request, a notice saying what changed', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(
        f,
        order({
          number: 'ЗП-1',
          expected: '2030-03-20',
          lines: [
            { name: 'Бумага', quantity: '10' },
            { name: 'Скрепки', quantity: '5' },
          ],
        }),
      );
      // Claimed, then given back to pending (a timeout): it counts as sent all the same.
      f.db.prepare(`UPDATE submissions SET first_claimed_at = 1, attempts = 1`).run();
      const before = f.submissions()[0]!;
      await send(
        f,
        order({
          number: 'ЗП-1',
          expected: '2030-03-25',
          address: '141400, Московская обл, г Химки, ул Заводская, д 5',
          lines: [
            { name: 'Бумага', quantity: '12' },
            { name: 'Картон', quantity: '1' },
          ],
        }),
      );
      expect(f.submissions()).toEqual([before]);
      const [notice] = notices(f);
      expect(notice).toMatchObject({ kind: 'edited', documentId: refOf('ЗП-1'), documentNumber: 'ЗП-1', externalId: before.externalId });
      expect(JSON.parse(notice!.detail)).toEqual({
        kind: 'edited',
        sentAs: before.externalId,
        changes: [
          { what: 'field', field: 'delivery.desiredDate', from: '2030-03-20', to: '2030-03-25' },
          { what: 'field', field: 'delivery.city', from: 'Москва', to: 'Химки' },
          { what: 'field', field: 'delivery.address', from: '123456, Москва г, Ленина ул, дом № 1', to: '141400, Московская обл, г Химки, ул Заводская, д 5' },
          { what: 'line', name: 'Бумага', unit: 'шт', from: 10, to: 12 },
          { what: 'line', name: 'Картон', unit: 'шт', from: null, to: 1 },
          { what: 'line', name: 'Скрепки', unit: 'шт', from: 5, to: null },
        ],
      });
      expect(await notesOf(f)).toEqual([expect.stringContaining('ЗП-1 was changed in 1C after it was sent')]);
    });
  });

  it('a later version equal to what was sent closes the notice; another change updates it, still one notice', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      const first = { number: 'ЗП-1', lines: [{ name: 'Бумага', quantity: '10' }] };
      await send(f, order(first));
      sent(f.db, 'ЗП-1');
      await send(f, order({ ...first, lines: [{ name: 'Бумага', quantity: '11' }] }));
      await send(f, order({ ...first, lines: [{ name: 'Бумага', quantity: '12' }] }));
      expect(notices(f)).toHaveLength(1);
      expect(JSON.parse(notices(f)[0]!.detail).changes).toEqual([{ what: 'line', name: 'Бумага', unit: 'шт', from: 10, to: 12 }]);
      await send(f, order(first));
      expect(notices(f)).toEqual([]);
      expect(f.db.prepare(`SELECT resolution FROM document_notices`).all()).toEqual([{ resolution: 'matches-sent' }]);
    });
  });
});

describe('an order withdrawn in 1C (УдалениеОбъекта)', () => {
  it('one that was sent: a notice to cancel it on the platform, naming it and its request', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-7' }));
      sent(f.db, 'ЗП-7', 'PRC-REQ-000042');
      await send(f, edWithdrawal(refOf('ЗП-7')));
      expect(f.submissions().map((s) => s.state)).toEqual(['accepted']);
      expect(notices(f)).toEqual([expect.objectContaining({ kind: 'withdrawn', documentNumber: 'ЗП-7', platformId: 'PRC-REQ-000042' })]);
      expect(await notesOf(f)).toEqual([
        expect.stringContaining('ЗП-7 was unposted or deleted in 1C after it was sent as PRC-REQ-000042: cancel it on the platform'),
      ]);
    });
  });

  it('one still waiting: not sent, and why is recorded on its row', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-7' }));
      await send(f, edWithdrawal(refOf('ЗП-7')));
      expect(f.submissions()).toEqual([
        expect.objectContaining({ state: 'withdrawn', lastErrorCode: 'DOCUMENT_WITHDRAWN', lastError: expect.stringContaining('before it was sent') }),
      ]);
      expect(notices(f)).toEqual([]);
    });
  });

  it('one never seen (1C deletes many things): nothing', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, edWithdrawal(refOf('never')), edWithdrawal(refOf('item'), 'НоменклатураСсылка'));
      expect(f.submissions()).toEqual([]);
      expect(notices(f)).toEqual([]);
      expect(f.files()[0]).toMatchObject({ state: 'archived', problemCount: 0 });
    });
  });

  it('a withdrawn order posted again is the same order: its request is sent as it is now, under its key', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-7', lines: [{ quantity: '3' }] }));
      const key = f.submissions()[0]!.idempotencyKey;
      await send(f, edWithdrawal(refOf('ЗП-7')));
      await send(f, order({ number: 'ЗП-7', lines: [{ quantity: '4' }] }));
      expect(f.submissions()).toEqual([expect.objectContaining({ state: 'pending', idempotencyKey: key, lastErrorCode: null })]);
      expect(JSON.parse(f.submissions()[0]!.payload).items[0].quantity).toBe(4);
    });
  });

  it('a sent order withdrawn, then posted again unchanged: the withdrawal notice closes', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-7' }));
      sent(f.db, 'ЗП-7');
      await send(f, edWithdrawal(refOf('ЗП-7')));
      expect(notices(f)).toHaveLength(1);
      await send(f, order({ number: 'ЗП-7' }));
      expect(notices(f)).toEqual([]);
    });
  });
});

describe('an order with a problem', () => {
  it('is acknowledged and shown until 1C sends it again, then judged afresh', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-9', inn: '7707083894' }));
      expect(f.submissions()).toEqual([]);
      expect(notices(f)).toEqual([expect.objectContaining({ kind: 'problem', documentNumber: 'ЗП-9' })]);
      expect(JSON.parse(notices(f)[0]!.detail).problems).toEqual([expect.objectContaining({ code: 'INN_INVALID', field: 'customer.inn' })]);
      // Another message without it: the notice stays.
      await send(f, order({ number: 'ЗП-10' }));
      expect(notices(f)).toHaveLength(1);
      // 1C sends it again, fixed: it is a request, and the notice closes.
      await send(f, order({ number: 'ЗП-9' }));
      expect(f.submissions().map((s) => s.documentNumber)).toEqual(['ЗП-10', 'ЗП-9']);
      expect(notices(f)).toEqual([]);
    });
  });
});

describe('an order sent before orders had an identity (keyed by its number)', () => {
  /** Make the one request look as an earlier version recorded it: keyed and sent by the number alone. */
  function legacy(db: Db, createdAt: number): void {
    const row = db.prepare('SELECT id, payload, document_number AS number FROM submissions').get() as { id: number; payload: string; number: string };
    const payload = JSON.stringify({ ...(JSON.parse(row.payload) as object), externalId: row.number });
    db.prepare(
      `UPDATE submissions SET dedupe_key = ?, external_id = ?, payload = ?, payload_hash = 'old', content_hash = NULL, document_number = NULL,
              state = 'accepted', first_claimed_at = 1, created_at = ? WHERE id = ?`,
    ).run(row.number, row.number, payload, createdAt, row.id);
  }
  const MARCH = Date.parse('2030-03-02T12:00:00Z');

  it('sent again unchanged: recognised by its number and date, no second request, and keyed by its identity from then on', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-5', date: '2030-03-01T10:00:00' }));
      legacy(f.db, MARCH);
      await send(f, order({ number: 'ЗП-5', date: '2030-03-01T10:00:00' }));
      expect(rows(f).map((r) => [r.id, r.number, r.externalId])).toEqual([[refOf('ЗП-5'), 'ЗП-5', 'ЗП-5']]);
      // Withdrawn now: found by its identity.
      await send(f, edWithdrawal(refOf('ЗП-5')));
      expect(notices(f)).toEqual([expect.objectContaining({ kind: 'withdrawn', documentNumber: 'ЗП-5' })]);
    });
  });

  it('changed: a notice, not a second request', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-5', date: '2030-03-01T10:00:00' }));
      legacy(f.db, MARCH);
      await send(f, order({ number: 'ЗП-5', date: '2030-03-01T10:00:00', lines: [{ name: 'Бумага', quantity: '99' }] }));
      expect(f.submissions()).toHaveLength(1);
      expect(notices(f)).toEqual([expect.objectContaining({ kind: 'edited', documentNumber: 'ЗП-5' })]);
    });
  });

  it('the same number on an order dated after that request was recorded is another order (next year’s)', async () => {
    await withExchange(async (f) => {
      await f.intake.start();
      await send(f, order({ number: 'ЗП-5', date: '2030-03-01T10:00:00' }));
      legacy(f.db, MARCH);
      await send(f, order({ number: 'ЗП-5', ref: refOf('next year'), date: '2031-01-15T10:00:00' }));
      expect(rows(f).map((r) => [r.number, r.state])).toEqual([
        [null, 'accepted'],
        ['ЗП-5', 'pending'],
      ]);
      expect(notices(f)).toEqual([]);
    });
  });
});
