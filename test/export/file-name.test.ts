import { describe, expect, it } from 'vitest';
import { flowOfChannel, renderFileName, sanitiseFileName, withSuffix } from '../../src/export/file-name.js';

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
