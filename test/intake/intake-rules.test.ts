import { describe, expect, it } from 'vitest';
import { compileGlob, createNameMatcher, isUnsafeName, markedNameOf, markerNamesFor, parseStoredName, storedName } from '../../src/intake/inbox-names.js';
import { renderCsvReport, renderJsonReport } from '../../src/intake/report-files.js';
import { createStabilityTracker } from '../../src/intake/stability.js';
import { prepareSubmission, sha256Hex } from '../../src/intake/submission-keys.js';
import type { MappedSubmission } from '../../src/mapping/types.js';

describe('stability', () => {
  const rules = { stableForMs: 1000, minAgeMs: 500, emptyFileTimeoutMs: 5000 };

  it('takes a file only after size and mtime stayed the same for stableForMs and it is old enough', () => {
    const t = createStabilityTracker(rules);
    expect(t.observe('a.csv', { size: 10, mtimeMs: 0 }, 100)).toEqual({ kind: 'wait', checkAt: 1100 });
    expect(t.observe('a.csv', { size: 10, mtimeMs: 0 }, 1099)).toEqual({ kind: 'wait', checkAt: 1100 });
    expect(t.observe('a.csv', { size: 10, mtimeMs: 0 }, 1100)).toEqual({ kind: 'ready' });
  });

  it('starts over when the size or the mtime changes', () => {
    const t = createStabilityTracker(rules);
    t.observe('a.csv', { size: 10, mtimeMs: 0 }, 100);
    expect(t.observe('a.csv', { size: 20, mtimeMs: 900 }, 1100)).toEqual({ kind: 'wait', checkAt: 2100 });
    expect(t.observe('a.csv', { size: 20, mtimeMs: 950 }, 2100)).toEqual({ kind: 'wait', checkAt: 3100 });
  });

  it('holds a file with a recent mtime until minAgeMs has passed', () => {
    const t = createStabilityTracker({ ...rules, stableForMs: 0 });
    expect(t.observe('a.csv', { size: 1, mtimeMs: 1000 }, 1200)).toEqual({ kind: 'wait', checkAt: 1500 });
    expect(t.observe('a.csv', { size: 1, mtimeMs: 1000 }, 1500)).toEqual({ kind: 'ready' });
  });

  it('lets an empty file wait until emptyFileTimeoutMs after its mtime', () => {
    const t = createStabilityTracker(rules);
    expect(t.observe('e.csv', { size: 0, mtimeMs: 0 }, 4000)).toEqual({ kind: 'wait', checkAt: 5000 });
    expect(t.observe('e.csv', { size: 0, mtimeMs: 0 }, 5000)).toEqual({ kind: 'empty-expired' });
  });

  it('judges an empty file as soon as it is stable by default (emptyFileTimeoutMs 0), by the same wait as any file', () => {
    const t = createStabilityTracker({ ...rules, emptyFileTimeoutMs: 0 });
    expect(t.observe('e.csv', { size: 0, mtimeMs: 0 }, 100)).toEqual({ kind: 'wait', checkAt: 1100 });
    expect(t.observe('e.csv', { size: 0, mtimeMs: 0 }, 1100)).toEqual({ kind: 'empty-expired' });
    // A placeholder the writer then fills starts the wait again, and is taken whole.
    const p = createStabilityTracker({ ...rules, emptyFileTimeoutMs: 0 });
    expect(p.observe('p.csv', { size: 0, mtimeMs: 0 }, 100)).toEqual({ kind: 'wait', checkAt: 1100 });
    expect(p.observe('p.csv', { size: 50, mtimeMs: 900 }, 1000)).toEqual({ kind: 'wait', checkAt: 2000 });
    expect(p.observe('p.csv', { size: 50, mtimeMs: 900 }, 2000)).toEqual({ kind: 'ready' });
  });

  it('counts an mtime in the future from when the file was first seen: a clock ahead neither holds it back nor parks it for ever', () => {
    const t = createStabilityTracker(rules);
    const farAhead = 3 * 3_600_000;
    // First sight at 100: warned once, by how far ahead; then taken after stableForMs and minAgeMs from that sight.
    expect(t.observe('f.csv', { size: 10, mtimeMs: farAhead }, 100)).toEqual({ kind: 'wait', checkAt: 1100, mtimeAheadMs: farAhead - 100 });
    expect(t.observe('f.csv', { size: 10, mtimeMs: farAhead }, 600)).toEqual({ kind: 'wait', checkAt: 1100 });
    expect(t.observe('f.csv', { size: 10, mtimeMs: farAhead }, 1100)).toEqual({ kind: 'ready' });
    // An empty file touched into 2099 is still rejected emptyFileTimeoutMs after it was first seen.
    const y2099 = Date.parse('2099-01-01T00:00:00Z');
    expect(t.observe('e.csv', { size: 0, mtimeMs: y2099 }, 100)).toMatchObject({ kind: 'wait', checkAt: 5100 });
    expect(t.observe('e.csv', { size: 0, mtimeMs: y2099 }, 5100)).toEqual({ kind: 'empty-expired' });
  });

  it('forgets files that left the inbox', () => {
    const t = createStabilityTracker(rules);
    t.observe('a.csv', { size: 10, mtimeMs: 0 }, 100);
    t.retain(new Set());
    expect(t.observe('a.csv', { size: 10, mtimeMs: 0 }, 1100)).toEqual({ kind: 'wait', checkAt: 2100 });
  });
});

describe('inbox names', () => {
  it.each([
    ['*.csv', 'orders.csv', true],
    ['*.csv', 'ORDERS.CSV', true],
    ['*.csv', 'orders.csv.tmp', false],
    ['req-??.csv', 'req-01.csv', true],
    ['req-??.csv', 'req-001.csv', false],
    ['a+b(1).csv', 'a+b(1).csv', true],
    ['*.{csv,json}', 'Заявка (1).JSON', true],
  ])('glob %s against %s is %s', (pattern, name, expected) => {
    expect(compileGlob(pattern)(name)).toBe(expected);
  });

  it('includes by one pattern and excludes by any', () => {
    const matches = createNameMatcher({ include: ['*.csv', '*.json'], exclude: ['~*', '*.tmp', '.*'] });
    expect(['a.csv', 'b.json', '~a.csv', '.hidden.csv', 'c.txt'].filter(matches)).toEqual(['a.csv', 'b.json']);
  });

  it.each([
    ['ok.csv', false],
    ['..\\evil.csv', true],
    ['a\\b.csv', true],
    ['x..csv', true],
    ['line\nbreak.csv', true],
    ['del\u007f.csv', true],
    ['c1\u0085.csv', true],
    ['invoice\u202evsc.exe', true],
    ['isolate\u2066.csv', true],
    ['заявки 2026-06.csv', false],
    ['订单.json', false],
  ])('%j unsafe: %s', (name, unsafe) => {
    expect(isUnsafeName(name)).toBe(unsafe);
  });

  it('pairs done-markers with their files', () => {
    expect(markerNamesFor('a.csv', 'any')).toEqual(['a.csv.done', 'a.csv.ok']);
    expect(markerNamesFor('a.csv', 'none')).toEqual([]);
    expect(markedNameOf('a.csv.ok', 'ok')).toBe('a.csv');
    expect(markedNameOf('a.csv.ok', 'done')).toBeNull();
    expect(markedNameOf('a.csv', 'any')).toBeNull();
  });

  it('round-trips the stored name of a file with a row', () => {
    expect(parseStoredName(storedName(42, '7-orders.csv'))).toEqual({ id: 42, originalName: '7-orders.csv' });
    expect(parseStoredName('orders.csv')).toBeNull();
  });
});

describe('submission keys', () => {
  const request: MappedSubmission = {
    kind: 'request',
    externalId: 'R-1',
    firstRow: 3,
    payload: {
      externalId: 'R-1',
      customer: { inn: '7707083893', name: 'A' },
      contact: { name: 'B', phone: '1' },
      delivery: { city: 'C', address: 'D', desiredDate: '2099-01-01' },
      items: [{ lineId: '1', name: 'E', quantity: 1, unit: 'шт' }],
    },
  };

  it('keys a request by its externalId, stable across calls, and a correction by the payload hash', () => {
    const a = prepareSubmission(request, 'erp');
    const b = prepareSubmission(request, 'erp');
    expect(a).toEqual(b);
    expect(a.payload).toBe(JSON.stringify(request.payload));
    expect(a.payloadHash).toBe(sha256Hex(a.payload));
    expect(a.dedupeKey).toBe('R-1');
    expect(a.idempotencyKey).toBe('erp:R-1');
    expect(a.correctionKey).toBe(`erp:R-1:${a.payloadHash.slice(0, 16)}`);
  });

  it('makes header-safe keys from Cyrillic and over-long externalIds, still stable', () => {
    const cyrillic = prepareSubmission({ ...request, externalId: 'ЗК-000101' }, 'erp');
    expect(cyrillic.idempotencyKey).toBe(`erp:${encodeURIComponent('ЗК-000101')}`);
    expect(cyrillic.idempotencyKey).toMatch(/^[\x21-\x7e]+$/);
    expect(cyrillic.dedupeKey).toBe('ЗК-000101');
    const long = prepareSubmission({ ...request, externalId: 'Я'.repeat(100) }, 'erp');
    expect(long.idempotencyKey).toMatch(/^erp:sha256:[0-9a-f]{64}$/);
    expect(prepareSubmission({ ...request, externalId: 'Я'.repeat(100) }, 'erp').idempotencyKey).toBe(long.idempotencyKey);
    expect(long.correctionKey).not.toBe(long.idempotencyKey);
  });

  it('keys a confirmation by order and payload hash', () => {
    const c = prepareSubmission(
      {
        kind: 'confirmation',
        externalId: 'ORD-2026-000001',
        orderId: 'ORD-2026-000001',
        firstRow: 1,
        payload: { supplierOrderId: 'S-1', readyToShipDate: '2099-01-01', items: [{ lineId: '1', confirmedQuantity: 1, price: 1.5, currency: 'RUB' }] },
      },
      'erp',
    );
    expect(c.dedupeKey).toBe(`ORD-2026-000001:${c.payloadHash}`);
    expect(c.idempotencyKey).toBe(`erp:confirm:ORD-2026-000001:${c.payloadHash.slice(0, 16)}`);
    expect(c.orderId).toBe('ORD-2026-000001');
  });
});

describe('report rendering', () => {
  const report = {
    file: 'req.csv',
    sha256: 'abc',
    problems: [{ row: 2, field: 'customer.inn', code: 'INN_INVALID' as const, message: 'Row 2: "1;2" fails; see "x"', externalId: 'R-2', value: '12' }],
    notes: [],
  };

  it('writes a CSV twin with a BOM, ; and quoted cells', () => {
    const csv = renderCsvReport(report);
    expect(csv.startsWith('\uFEFFrow;field;code;message;externalId\r\n')).toBe(true);
    expect(csv).toContain('2;customer.inn;INN_INVALID;"Row 2: ""1;2"" fails; see ""x""";R-2\r\n');
  });

  it('writes the JSON report with every problem field', () => {
    expect(JSON.parse(renderJsonReport(report))).toEqual({
      file: 'req.csv',
      sha256: 'abc',
      problems: [{ row: 2, field: 'customer.inn', code: 'INN_INVALID', message: 'Row 2: "1;2" fails; see "x"', externalId: 'R-2', value: '12' }],
      notes: [],
    });
  });
});
