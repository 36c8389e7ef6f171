/**
 * Messages in the exchange folder for other codes (`exchange/stray-messages.ts`): which names are
 * such messages, what their codes tell, and the words for the log.
 */
import { describe, expect, it } from 'vitest';
import type { ExchangeCodes } from '../../src/exchange/message-names.js';
import { describeStrayMessage, strayMessageOf, strayMessagesIn, type StrayKind } from '../../src/exchange/stray-messages.js';

const CODES: ExchangeCodes = { node: 'ПК', peer: 'УТ' };
const UUID = '5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22';

describe('strayMessageOf', () => {
  it.each<[string, string, StrayKind, string | null, string | null, string | null]>([
    ['1C writes to another code', 'Message_УТ_XX.xml', 'node', null, 'УТ', 'XX'],
    ['1C writes to another code, compressed, extension in capitals', 'Message_УТ_XX.ZIP', 'node', null, 'УТ', 'XX'],
    ['1C writes to another code, transliterated', 'Message_UT_XX.xml', 'node', null, 'UT', 'XX'],
    ['another 1C writes to this program', 'Message_БП_ПК.xml', 'peer', null, 'БП', 'ПК'],
    ['1C writes as its UUID while the config names its prefix', `Message_УТ_${UUID}_ПК.xml`, 'peer', 'УТ', UUID, 'ПК'],
    ['another exchange altogether', 'Message_БП_ЗУП.xml', 'both', null, 'БП', 'ЗУП'],
    ['codes transliterated on one side only', 'Message_UT_ПК.xml', 'mixed', null, 'UT', 'ПК'],
    ['our reply under an earlier peer code', 'Message_ПК_БП.xml', 'reply', null, 'ПК', 'БП'],
    ['a reply to 1C from another code', 'Message_XX_УТ.xml', 'reply', null, 'XX', 'УТ'],
    ['our reply’s name compressed (we never write one)', 'Message_ПК_УТ.zip', 'swapped', null, 'ПК', 'УТ'],
    ['a name whose codes cannot be told apart', 'Message_A_B_C.xml', 'unreadable', null, null, null],
  ])('%s: %s is %s', (_what, name, kind, prefix, from, to) => {
    expect(strayMessageOf(name, CODES, true)).toEqual({ name, kind, prefix, from, to });
  });

  it.each([
    ['1C’s message to us', 'Message_УТ_ПК.xml'],
    ['1C’s message to us, transliterated and compressed', 'Message_UT_PK.Zip'],
    ['1C’s message to us with its prefix', `Message_БП_УТ_ПК.xml`],
    ['our reply', 'Message_ПК_УТ.xml'],
    ['our reply, transliterated', 'Message_PK_UT.xml'],
    ['1C’s folder test', `ConnectionCheckFile_${UUID}.tmp`],
    ['another file', 'orders.csv'],
    ['a message in lower case', 'message_УТ_XX.xml'],
    ['a temporary name', '.Message_УТ_XX.xml.tmp'],
  ])('passes over %s (%s)', (_what, name) => {
    expect(strayMessageOf(name, CODES, true)).toBeNull();
  });

  it('takes our reply’s name for 1C’s message with the codes swapped while this exchange has written no reply', () => {
    for (const name of ['Message_ПК_УТ.xml', 'Message_PK_UT.xml']) {
      expect(strayMessageOf(name, CODES, false)).toMatchObject({ kind: 'swapped' });
      expect(strayMessageOf(name, CODES, true)).toBeNull();
    }
  });

  it('lists a folder’s stray messages in name order', () => {
    expect(strayMessagesIn(['orders.csv', 'Message_УТ_XX.xml', 'Message_УТ_ПК.xml', 'Message_БП_ПК.xml'], CODES, true).map((s) => s.name)).toEqual([
      'Message_БП_ПК.xml',
      'Message_УТ_XX.xml',
    ]);
  });
});

describe('describeStrayMessage', () => {
  it('names both codes of the file, the key to change and the restart', () => {
    const text = describeStrayMessage(strayMessageOf('Message_УТ_XX.xml', CODES, true)!, CODES);
    expect(text).toBe(
      "Message_УТ_XX.xml: 1C writes to the code XX: this program's code in 1C is XX, the config says ПК (enterpriseData.node); set node: XX and restart the service (systemctl restart procurement-connector), or type ПК as the other program's prefix in 1C",
    );
  });

  it('says when 1C writes as its UUID, with its prefix', () => {
    expect(describeStrayMessage(strayMessageOf(`Message_УТ_${UUID}_ПК.xml`, CODES, true)!, CODES)).toContain(
      `1C writes as ${UUID} (its exchange UUID; its infobase prefix is УТ): 1C's code is ${UUID}, the config says УТ (enterpriseData.peer); set peer: ${UUID}`,
    );
  });

  it.each<StrayKind>(['both', 'mixed', 'swapped', 'reply', 'unreadable'])('words a %s message with its name', (kind) => {
    const names: Record<string, string> = {
      both: 'Message_БП_ЗУП.xml',
      mixed: 'Message_UT_ПК.xml',
      swapped: 'Message_ПК_УТ.zip',
      reply: 'Message_ПК_БП.xml',
      unreadable: 'Message_A_B_C.xml',
    };
    const stray = strayMessageOf(names[kind]!, CODES, true)!;
    expect(stray.kind).toBe(kind);
    expect(describeStrayMessage(stray, CODES)).toMatch(new RegExp(`^${names[kind]!.replace('.', '\\.')}: `));
  });
});
