/**
 * What a flow asks of its mapping (`config/flow-mapping-checks.ts`): an exchange with 1C reads XML
 * messages, and the shipped EnterpriseData mapping's placeholders are named while they are in use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { flowSchema } from '../../src/config/flow-schema.js';
import { flowMappingProblem, flowMappingWarnings } from '../../src/config/flow-mapping-checks.js';
import { loadMappingSpec, parseMappingSpec } from '../../src/config/load-mapping.js';

const SHIPPED = path.resolve('config/mappings/enterprisedata-orders.yaml');
const exchangeFlow = (mapping: string) =>
  flowSchema.parse({ name: 'exchange-1c', kind: 'requests', inbox: '/tmp/x', mapping, results: '/tmp/r', enterpriseData: { node: 'PC', peer: 'UT' } });

describe('flowMappingProblem', () => {
  it('accepts the shipped EnterpriseData mapping for an exchange flow', () => {
    expect(flowMappingProblem(exchangeFlow(SHIPPED), loadMappingSpec(SHIPPED))).toBeUndefined();
  });

  it('refuses a CSV mapping for an exchange flow, naming what it reads', () => {
    const csv = path.resolve('config/mappings/1c-requests.yaml');
    expect(flowMappingProblem(exchangeFlow(csv), loadMappingSpec(csv))).toMatch(/^enterpriseData needs a mapping that reads 1C's XML messages .* reads csv$/);
  });

  it('refuses a confirmations mapping for a requests flow', () => {
    const confirmations = path.resolve('config/mappings/supplier-confirmations.yaml');
    expect(flowMappingProblem(exchangeFlow(confirmations), loadMappingSpec(confirmations))).toMatch(/^kind is requests but .* is a confirmations mapping$/);
  });
});

describe('flowMappingWarnings', () => {
  it('names every placeholder the shipped file marks SITE while it is in use', () => {
    const marked = fs
      .readFileSync(SHIPPED, 'utf8')
      .split('\n')
      .filter((line) => /^\s+[\w.]+: \{/.test(line))
      .map((line) => line.trim().split(':')[0]);
    expect(marked).toEqual(['contact.name', 'contact.phone', 'delivery.city', 'delivery.address']);
    expect(flowMappingWarnings(exchangeFlow(SHIPPED), loadMappingSpec(SHIPPED))).toEqual([
      expect.stringContaining('contact.name default: "Отдел закупок"'),
      expect.stringContaining('contact.phone const: "+7 000 000-00-00"'),
      expect.stringContaining('delivery.city default: "Москва"'),
      expect.stringContaining('delivery.address default: "Адрес склада не указан в заказе"'),
    ]);
  });

  it('says nothing once a site put its own, and names what is left', () => {
    const own = parseMappingSpec(
      {
        preset: 'enterprisedata',
        request: {
          'contact.name': { default: 'Снабжение' },
          'contact.phone': { const: '+7 495 123-45-67' },
          'delivery.city': { default: 'Химки' },
          'delivery.address': { default: 'Склад, ул. Заводская, 5' },
        },
      },
      'own.yaml',
    );
    expect(flowMappingWarnings(exchangeFlow('own.yaml'), own)).toEqual([]);
    const half = parseMappingSpec(
      { preset: 'enterprisedata', request: { 'contact.phone': { const: '+7 495 123-45-67' }, 'delivery.city': { default: 'Москва' } } },
      'half.yaml',
    );
    expect(flowMappingWarnings(exchangeFlow('half.yaml'), half)).toEqual([expect.stringContaining('delivery.city default: "Москва"')]);
  });
});
