/** A document seen again and a withdrawal, decided against its request: the table of `intake/decide-document.ts`. */
import { describe, expect, it } from 'vitest';
import { decideDocument, decideWithdrawal } from '../../src/intake/decide-document.js';
import { describeChanges } from '../../src/intake/describe-changes.js';
import type { ExistingSubmission, PreparedSubmission } from '../../src/store/record-file.js';
import type { SubmissionState } from '../../src/store/submissions.js';

const DOC = 'a1b2c3d4-0000-11ee-b962-0242ac120002';

function version(number: string, content: string, payload = `{"n":"${number}","c":"${content}"}`): PreparedSubmission {
  return {
    kind: 'request',
    externalId: `${number} ${DOC}`,
    orderId: null,
    firstRow: 3,
    payload,
    payloadHash: `p:${number}:${content}`,
    dedupeKey: DOC,
    idempotencyKey: `erp:${DOC}`,
    correctionKey: `erp:${DOC}:x`,
    document: { id: DOC, number, date: '2030-01-10' },
    contentHash: `c:${content}`,
  };
}

function row(state: SubmissionState, claimed: boolean, sent = version('ЗП-1', 'A')): ExistingSubmission {
  return {
    id: 7,
    payloadHash: sent.payloadHash,
    state,
    externalId: sent.externalId,
    payload: sent.payload,
    contentHash: sent.contentHash!,
    documentNumber: sent.document!.number,
    documentDate: sent.document!.date,
    firstClaimedAt: claimed ? 1 : null,
    platformId: state === 'accepted' ? 'PRC-REQ-000007' : null,
  };
}

describe('decideDocument', () => {
  it.each<[string, PreparedSubmission, ExistingSubmission, string, string[]]>([
    ['unchanged, waiting', version('ЗП-1', 'A'), row('pending', false), 'duplicate', ['resolve problem', 'resolve edited', 'resolve withdrawn']],
    ['unchanged, sent', version('ЗП-1', 'A'), row('accepted', true), 'duplicate', ['resolve problem', 'resolve edited', 'resolve withdrawn']],
    ['renumbered, waiting', version('ЗП-2', 'A'), row('pending', false), 'replace', ['resolve problem']],
    ['renumbered, sent', version('ЗП-2', 'A'), row('accepted', true), 'renumber', ['resolve problem', 'resolve edited', 'resolve withdrawn']],
    [
      'renumbered, claimed then back to pending',
      version('ЗП-2', 'A'),
      row('pending', true),
      'renumber',
      ['resolve problem', 'resolve edited', 'resolve withdrawn'],
    ],
    ['changed, waiting', version('ЗП-1', 'B'), row('pending', false), 'replace', ['resolve problem']],
    ['changed, in flight', version('ЗП-1', 'B'), row('in_flight', true), 'edited', ['resolve problem', 'resolve withdrawn', 'upsert edited']],
    ['changed, claimed then back to pending', version('ЗП-1', 'B'), row('pending', true), 'edited', ['resolve problem', 'resolve withdrawn', 'upsert edited']],
    ['changed, sent', version('ЗП-1', 'B'), row('accepted', true), 'edited', ['resolve problem', 'resolve withdrawn', 'upsert edited']],
    ['changed, held', version('ЗП-1', 'B'), row('held', true), 'edited', ['resolve problem', 'resolve withdrawn', 'upsert edited']],
    [
      'changed, dead (may have reached the platform)',
      version('ЗП-1', 'B'),
      row('dead', true),
      'edited',
      ['resolve problem', 'resolve withdrawn', 'upsert edited'],
    ],
    ['changed, refused by the platform', version('ЗП-1', 'B'), row('rejected', true), 'correct', ['resolve problem']],
    ['posted again after a withdrawal, unchanged', version('ЗП-1', 'A'), row('withdrawn', false), 'replace', ['resolve problem']],
    ['posted again after a withdrawal, changed', version('ЗП-1', 'B'), row('withdrawn', false), 'replace', ['resolve problem']],
  ])('%s → %s', (_name, submission, existing, action, notices) => {
    const outcome = decideDocument(submission, existing);
    expect(outcome.action.action).toBe(action);
    expect(outcome.notices.map((n) => (n.op === 'resolve' ? `resolve ${n.kinds.join()}` : `upsert ${n.kind}`))).toEqual(notices);
  });

  it('a renumbered order that was sent names the request it was sent as', () => {
    const outcome = decideDocument(version('ЗП-2', 'A'), row('accepted', true));
    expect(outcome.note).toMatchObject({ row: 3, text: { key: 'documentRenumbered', params: { number: 'ЗП-2', sentAs: 'PRC-REQ-000007' } } });
  });

  it('the edited notice names the number it has now, the request and what changed', () => {
    const before = version('ЗП-1', 'A', JSON.stringify({ delivery: { desiredDate: '2030-03-01' }, items: [{ name: 'Бумага', unit: 'шт', quantity: 1 }] }));
    const after = version('ЗП-5', 'B', JSON.stringify({ delivery: { desiredDate: '2030-03-02' }, items: [{ name: 'Бумага', unit: 'шт', quantity: 2 }] }));
    const [upsert] = decideDocument(after, row('accepted', true, before)).notices.filter((n) => n.op === 'upsert');
    expect(upsert).toMatchObject({ kind: 'edited', documentId: DOC, submissionId: 7, documentNumber: 'ЗП-5' });
    expect(JSON.parse((upsert as { detail: string }).detail)).toEqual({
      kind: 'edited',
      sentAs: before.externalId,
      changes: [
        { what: 'field', field: 'delivery.desiredDate', from: '2030-03-01', to: '2030-03-02' },
        { what: 'line', name: 'Бумага', unit: 'шт', from: 1, to: 2 },
      ],
    });
  });
});

describe('decideWithdrawal', () => {
  const withdrawal = { documentId: DOC, row: 4 };
  it.each<[string, ExistingSubmission | undefined, string, string[]]>([
    ['never seen', undefined, 'none', ['resolve problem']],
    ['withdrawn already', row('withdrawn', false), 'none', ['resolve problem']],
    ['waiting, never claimed', row('pending', false), 'withdraw', ['resolve problem']],
    ['refused by the platform', row('rejected', true), 'withdraw', ['resolve problem']],
    ['claimed, back to pending', row('pending', true), 'notice', ['resolve problem', 'resolve edited', 'upsert withdrawn']],
    ['in flight', row('in_flight', true), 'notice', ['resolve problem', 'resolve edited', 'upsert withdrawn']],
    ['sent', row('accepted', true), 'notice', ['resolve problem', 'resolve edited', 'upsert withdrawn']],
    ['dead', row('dead', true), 'notice', ['resolve problem', 'resolve edited', 'upsert withdrawn']],
  ])('%s → %s', (_name, existing, action, notices) => {
    const outcome = decideWithdrawal(withdrawal, existing);
    expect(outcome.action.action).toBe(action);
    expect(outcome.notices.map((n) => (n.op === 'resolve' ? `resolve ${n.kinds.join()}` : `upsert ${n.kind}`))).toEqual(notices);
  });
});

describe('describeChanges', () => {
  const request = (over: Record<string, unknown> = {}) => ({
    externalId: 'ЗП-1 x',
    customer: { inn: '7707083893', name: 'Ромашка' },
    contact: { name: 'Иванов', phone: '+7' },
    delivery: { city: 'Москва', address: 'ул. Ленина, 1', desiredDate: '2030-03-01' },
    items: [
      { lineId: '1', name: 'Бумага', quantity: 10, unit: 'шт' },
      { lineId: '2', name: 'Скрепки', quantity: 5, unit: 'упак' },
    ],
    ...over,
  });

  it('the same request, even renumbered, changes nothing', () => {
    expect(describeChanges(request(), request({ externalId: 'ЗП-9 x' }))).toEqual([]);
  });

  it('a line inserted before others is one line added, not every line changed', () => {
    const items = [{ lineId: '1', name: 'Картон', quantity: 1, unit: 'шт' }, ...request().items.map((item, i) => ({ ...item, lineId: String(i + 2) }))];
    expect(describeChanges(request(), request({ items }))).toEqual([{ what: 'line', name: 'Картон', unit: 'шт', from: null, to: 1 }]);
  });

  it('the same item twice is paired in order', () => {
    const twice = (a: number, b: number) =>
      request({
        items: [
          { lineId: '1', name: 'Бумага', quantity: a, unit: 'шт' },
          { lineId: '2', name: 'Бумага', quantity: b, unit: 'шт' },
        ],
      });
    expect(describeChanges(twice(1, 2), twice(1, 3))).toEqual([{ what: 'line', name: 'Бумага', unit: 'шт', from: 2, to: 3 }]);
  });

  it('a date given or taken away, a contact and a comment', () => {
    const noDate = request({ delivery: { city: 'Москва', address: 'ул. Ленина, 1' }, contact: { name: 'Петров', phone: '+7' }, comment: 'Срочно' });
    expect(describeChanges(request(), noDate)).toEqual([
      { what: 'field', field: 'delivery.desiredDate', from: '2030-03-01', to: null },
      { what: 'field', field: 'contact.name', from: 'Иванов', to: 'Петров' },
      { what: 'field', field: 'comment', from: null, to: 'Срочно' },
    ]);
  });

  it('a payload that is not JSON reads as empty, never throws', () => {
    expect(describeChanges('not json', JSON.stringify(request()))).toContainEqual({ what: 'field', field: 'delivery.city', from: null, to: 'Москва' });
  });
});
