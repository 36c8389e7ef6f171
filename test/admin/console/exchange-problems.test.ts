/**
 * What an exchange waits on a person for (`data/exchange-problems.ts`), read from a real store,
 * and its words in both catalogues: every kind of message for other codes and every version
 * problem worded in English and Russian with its codes filled in.
 */
import { describe, expect, it } from 'vitest';
import { flowSchema, type FlowConfig } from '../../../src/config/flow-schema.js';
import { exchangeProblemCount, exchangeProblems, type StrayMessageItem } from '../../../src/admin/console/data/exchange-problems.js';
import { translator, type MessageKey } from '../../../src/admin/console/i18n.js';
import { STRAY_KIND } from '../../../src/exchange/stray-messages.js';
import { saveStrayMessages } from '../../../src/store/exchange-folders.js';
import { exchangeStateOf, saveExchange } from '../../../src/store/exchanges.js';
import { withStore } from '../../helpers/store.js';
import { withTempDir } from '../../helpers/temp-dir.js';

const KEY = { flow: 'exchange-1c', node: 'ПК', peer: 'УТ' };
const UUID = '5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22';

function flow(versions: string[]): FlowConfig {
  return flowSchema.parse({
    name: 'exchange-1c',
    kind: 'requests',
    inbox: '/srv/1c-sync',
    mapping: 'config/mappings/enterprisedata-orders.yaml',
    results: '/srv/results',
    enterpriseData: { node: 'ПК', peer: 'УТ', versions },
  });
}

describe('exchangeProblems', () => {
  it('lists the recorded messages for other codes, read against the flow’s codes, and 1C’s versions it could read', async () => {
    await withTempDir((dir) =>
      withStore(dir, (db) => {
        saveStrayMessages(db, 'exchange-1c', [{ name: 'Message_УТ_XX.xml', seenAt: Date.UTC(2030, 2, 1) }], Date.UTC(2030, 2, 1));
        saveExchange(db, KEY, { settingsAt: 1, agreedVersion: null, peerVersions: JSON.stringify(['1.3', '1.8']) });
        const problems = exchangeProblems(db, flow(['1.21']), exchangeStateOf(db, KEY))!;
        expect(problems.strayMessages).toEqual([
          {
            name: 'Message_УТ_XX.xml',
            kind: 'node',
            prefix: null,
            from: 'УТ',
            to: 'XX',
            node: 'ПК',
            peer: 'УТ',
            reply: 'Message_ПК_УТ.xml',
            seenAt: '2030-03-01T00:00:00.000Z',
            message: expect.stringContaining('1C writes to the code XX'),
          },
        ]);
        expect(problems.versionProblem).toEqual({ theirs: ['1.3', '1.8'], ours: ['1.21'], readable: ['1.8'], first: '1.6', last: '1.22' });
        expect(exchangeProblemCount(problems)).toBe(2);
      }),
    );
  });

  it('sees no version problem before 1C’s settings, or once a version is agreed', async () => {
    await withTempDir((dir) =>
      withStore(dir, (db) => {
        expect(exchangeProblems(db, flow(['1.8']), undefined)).toEqual({ strayMessages: [], versionProblem: null });
        saveExchange(db, KEY, { settingsAt: 1, agreedVersion: '1.8', peerVersions: JSON.stringify(['1.8']) });
        expect(exchangeProblems(db, flow(['1.8']), exchangeStateOf(db, KEY))!.versionProblem).toBeNull();
      }),
    );
  });
});

describe('the words of an exchange’s problems', () => {
  const stray = (kind: StrayMessageItem['kind'], prefix: string | null = null) => ({
    name: 'Message_A_B.xml',
    from: kind === 'unreadable' ? null : prefix === null ? 'БП' : UUID,
    to: kind === 'unreadable' ? null : 'XX',
    prefix,
    node: 'ПК',
    peer: 'УТ',
    reply: 'Message_ПК_УТ.xml',
  });

  it.each(['en', 'ru'] as const)('words every kind of message for other codes in %s, every placeholder filled', (language) => {
    const t = translator(language);
    const cases: [MessageKey, ReturnType<typeof stray>][] = [
      ...Object.values(STRAY_KIND).flatMap((kind): [MessageKey, ReturnType<typeof stray>][] => [
        [`exchange.stray.${kind}`, stray(kind)],
        [`exchange.strayFix.${kind}`, stray(kind)],
      ]),
      ['exchange.stray.peerUuid', stray('peer', 'УТ')],
    ];
    for (const [key, params] of cases) {
      const text = t(key, params);
      expect(text, key).not.toMatch(/\{\w+\}/);
      if (key.startsWith('exchange.stray.')) expect(text, key).toContain('Message_A_B.xml');
    }
    expect(t('exchange.stray.node', stray('node'))).toContain('XX');
    expect(t('exchange.stray.node', stray('node'))).toContain('ПК');
    expect(t('exchange.stray.peerUuid', stray('peer', 'УТ'))).toContain(UUID);
  });

  it.each(['en', 'ru'] as const)('words the version problem in %s, every placeholder filled', (language) => {
    const t = translator(language);
    for (const text of [
      t('exchange.noVersion', { theirs: '1.3, 1.8', ours: '1.21' }),
      t('exchange.noVersionFixDeclare', { readable: '1.8' }),
      t('exchange.noVersionFixUpdate', { first: '1.6', last: '1.22' }),
      t('exchange.settingsAnswered', { reply: 'Message_ПК_УТ.xml' }),
      t('exchange.namesLatin', { reply: 'Message_PK_UT.xml' }),
      t('exchange.namesPlain', { reply: 'Message_ПК_УТ.xml' }),
    ]) {
      expect(text).not.toMatch(/\{\w+\}/);
    }
    expect(t('exchange.noVersionFixDeclare', { readable: '1.8' })).toContain('1.8');
  });

  it('is Russian in Russian', () => {
    expect(translator('ru')('exchange.stray.node', stray('node'))).toBe(
      'Message_A_B.xml: 1С пишет коду XX: код этой программы в 1С — XX, а в настройках указан ПК (enterpriseData.node).',
    );
  });
});
