import { describe, expect, it } from 'vitest';
import { fallbackFileName, flowOfChannel, renderFileName, sanitiseFileName, withSuffix } from '../../src/export/file-name.js';
import { utf8Length } from '../../src/shared/file-name.js';
import { MAX_TARGET_NAME_BYTES } from '../../src/shared/write-file-atomic.js';

describe('renderFileName', () => {
  const now = new Date(2026, 5, 12, 9, 5, 7).getTime(); // local time
  const ctx = { now, exportId: 42, flow: 'requests', record: { eventId: 'EVT-000007', orderId: 'ORD-2026-000042', externalId: 'ZK/0612' } };
  it.each([
    ['order-status-{timestamp}-{seq}.csv', 'order-status-20260612090507-000042.csv'],
    ['{date}_{id}.json', '20260612_42.json'],
    ['{flow}-{externalId}-{eventId}-{orderId}.csv', 'requests-ZK_0612-EVT-000007-ORD-2026-000042.csv'],
    ['../../etc/{orderId}.csv', '_.._etc_ORD-2026-000042.csv'],
    ['.hidden-{seq}.csv', 'hidden-000042.csv'],
    ['{externalId}', 'ZK_0612'],
  ])('%s → %s', (template, expected) => {
    expect(renderFileName(template, ctx)).toBe(expected);
  });

  it('never yields a name with a path separator', () => {
    const name = renderFileName('{externalId}\\{orderId}/x.csv', { ...ctx, record: { externalId: '..\\..', orderId: 'a/b' } });
    expect(name).not.toMatch(/[/\\]/);
  });
});

describe('sanitiseFileName', () => {
  it('falls back when nothing is left, and caps the length keeping the extension', () => {
    expect(sanitiseFileName('...', 'export-000001')).toBe('export-000001');
    const long = sanitiseFileName('a'.repeat(300) + '.csv', 'x');
    expect(long).toHaveLength(200);
    expect(long.endsWith('.csv')).toBe(true);
  });
});

describe('withSuffix and flowOfChannel', () => {
  it('inserts the suffix before the extension', () => {
    expect(withSuffix('a.csv', 2)).toBe('a-2.csv');
    expect(withSuffix('noext', 3)).toBe('noext-3');
  });
  it('names the flow of a channel', () => {
    expect(flowOfChannel('ack:requests')).toBe('requests');
    expect(flowOfChannel('status')).toBe('status');
  });
});

describe('names fitted in bytes', () => {
  const now = new Date(2026, 5, 12, 9, 5, 7).getTime();
  const long = '采购申请'.repeat(25); // 100 characters, 300 bytes

  it('fits a name filled from a 100-character Chinese externalId, keeping its start and extension', () => {
    const name = renderFileName('ack-{externalId}-{id}.csv', { now, exportId: 7, flow: 'requests', record: { externalId: long } });
    expect(utf8Length(name)).toBeLessThanOrEqual(MAX_TARGET_NAME_BYTES);
    expect(name.startsWith('ack-采购申请')).toBe(true);
    expect(name).toMatch(/~[0-9a-f]{8}\.csv$/);
  });

  it('keeps two long names that differ only at the end apart', () => {
    const a = renderFileName('{externalId}.csv', { now, exportId: 1, flow: 'requests', record: { externalId: `${long}-1` } });
    const b = renderFileName('{externalId}.csv', { now, exportId: 1, flow: 'requests', record: { externalId: `${long}-2` } });
    expect(a).not.toBe(b);
  });

  it('fits a suffixed candidate again, since the suffix makes it longer', () => {
    const base = sanitiseFileName(`${'я'.repeat(118)}.csv`, 'x'); // 236 + 4 bytes: cut to fit
    const next = withSuffix(base, 2);
    expect(utf8Length(next)).toBeLessThanOrEqual(MAX_TARGET_NAME_BYTES);
    expect(next).not.toBe(base);
    expect(next.endsWith('.csv')).toBe(true);
  });

  it.each(['CON', 'nul.csv', 'COM1.csv', 'lpt9'])('puts a _ before the Windows device name %s', (name) => {
    expect(sanitiseFileName(name, 'x')).toBe(`_${name}`);
  });
});

describe('fallbackFileName', () => {
  it.each([
    ['status', 42, 'csv', 'status-000042.csv'],
    ['ack:requests', 7, 'json', 'ack-requests-000007.json'],
    ['ack:supplier-confirmations', 1234567, 'csv', 'ack-supplier-confirmations-1234567.csv'],
  ] as const)('%s row %i (%s) → %s', (channel, id, format, expected) => {
    expect(fallbackFileName(channel, id, format)).toBe(expected);
  });
});
