/**
 * The names of the exchange's files (`exchange/message-names.ts`): 1C's transliteration, which
 * files in the folder are 1C's messages to us and under which form, the codes any message's name
 * carries, and the name of our reply.
 */
import { describe, expect, it } from 'vitest';
import {
  isMessageFileName,
  isPeerMessageName,
  namesDependOnTransliteration,
  parseMessageName,
  peerNameForm,
  replyName,
  replyTransliterated,
  transliterate,
  type ExchangeCodes,
} from '../../src/exchange/message-names.js';

const CODES: ExchangeCodes = { node: 'ПК', peer: 'УТ' };

describe('transliterate', () => {
  it.each([
    ['УТ', 'UT'],
    ['ПК', 'PK'],
    // A capital that becomes a group gives a capitalised group, not an all-capitals one.
    ['ЦБ', 'TsB'],
    ['Щука', 'Shchuka'],
    ['ЖЁЛТЫЙ', 'ZhELTYY'],
    ['Хабаровск', 'Khabarovsk'],
    ['юг', 'yug'],
    ['Ярославль', 'Yaroslavl'],
    // ъ and ь are dropped, lower case or capital; ё is e.
    ['объём', 'obem'],
    ['ОБЪЁМ', 'OBEM'],
    ['съезд', 'sezd'],
    ['Message_УТ_ПК.xml', 'Message_UT_PK.xml'],
    // Latin letters, digits and other signs stay as they are.
    ['Node-01_b.XML', 'Node-01_b.XML'],
    ['', ''],
  ])('%s → %s', (text, expected) => {
    expect(transliterate(text)).toBe(expected);
  });
});

describe('isPeerMessageName', () => {
  it.each([
    ['1C’s message to us', 'Message_УТ_ПК.xml'],
    ['compressed', 'Message_УТ_ПК.zip'],
    ['with its extension in capitals', 'Message_УТ_ПК.XML'],
    ['compressed, in capitals', 'Message_УТ_ПК.Zip'],
    ['with the infobase prefix 1C adds when its own code is a UUID', 'Message_БП_УТ_ПК.xml'],
    ['with a Latin prefix of several parts', 'Message_AB_CD_УТ_ПК.zip'],
    ['transliterated', 'Message_UT_PK.xml'],
    ['transliterated, with a prefix', 'Message_BP_UT_PK.zip'],
  ])('takes %s (%s)', (_what, name) => {
    expect(isPeerMessageName(name, CODES)).toBe(true);
  });

  it.each([
    ['our own reply', 'Message_ПК_УТ.xml'],
    ['our own reply, transliterated', 'Message_PK_UT.xml'],
    ['a message to another node', 'Message_УТ_ДРУГОЙ.xml'],
    ['a message from another node', 'Message_БП_ПК2.xml'],
    ['a message whose peer code only ends like ours', 'Message_XУТ_ПК.xml'],
    ['a message whose node code only starts like ours', 'Message_УТ_ПК1.xml'],
    ['codes transliterated on one side only', 'Message_УТ_PK.xml'],
    ['1C’s folder test', 'ConnectionCheckFile_5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22.tmp'],
    ['a message being written under a temporary name', '.Message_УТ_ПК.xml.tmp'],
    ['a hidden copy of a message', '.Message_УТ_ПК.xml'],
    ['a message with another extension', 'Message_УТ_ПК.txt'],
    ['a message with no extension', 'Message_УТ_ПК'],
    ['a name in lower case', 'message_УТ_ПК.xml'],
    // An empty prefix is not the prefix form: `Message_<prefix>_` needs at least one character
    // between the two underscores, and without a prefix the name is `Message_УТ_ПК`, so
    // `Message__УТ_ПК` is neither form.
    ['a doubled underscore where a prefix would be', 'Message__УТ_ПК.xml'],
  ])('passes over %s (%s)', (_what, name) => {
    expect(isPeerMessageName(name, CODES)).toBe(false);
  });

  it('takes Latin codes as they are', () => {
    const codes = { node: 'PROC', peer: 'UT11' };
    expect(isPeerMessageName('Message_UT11_PROC.xml', codes)).toBe(true);
    expect(isPeerMessageName('Message_PROC_UT11.xml', codes)).toBe(false);
  });
});

describe('replyName', () => {
  it.each<[ExchangeCodes, boolean, string]>([
    [CODES, false, 'Message_ПК_УТ.xml'],
    [CODES, true, 'Message_PK_UT.xml'],
    [{ node: 'Щит', peer: 'ЦБ' }, true, 'Message_Shchit_TsB.xml'],
    [{ node: 'PROC', peer: 'UT11' }, false, 'Message_PROC_UT11.xml'],
    [{ node: 'PROC', peer: 'UT11' }, true, 'Message_PROC_UT11.xml'],
  ])('%o, transliterated: %s → %s', (codes, transliterated, expected) => {
    expect(replyName(codes, transliterated)).toBe(expected);
  });

  it('is never taken for a message of 1C’s, as it is or transliterated', () => {
    for (const transliterated of [false, true]) expect(isPeerMessageName(replyName(CODES, transliterated), CODES)).toBe(false);
  });
});

describe('peerNameForm', () => {
  it.each([
    ['Message_УТ_ПК.xml', 'plain'],
    ['Message_БП_УТ_ПК.zip', 'plain'],
    ['Message_UT_PK.xml', 'transliterated'],
    ['Message_BP_UT_PK.ZIP', 'transliterated'],
    ['Message_ПК_УТ.xml', null],
    ['Message_UT_ПК.xml', null],
  ])('%s → %s', (name, form) => {
    expect(peerNameForm(name, CODES)).toBe(form);
  });

  it('calls a name plain when the codes read the same transliterated (Latin codes)', () => {
    const codes = { node: 'PC', peer: 'UT' };
    expect(namesDependOnTransliteration(codes)).toBe(false);
    expect(peerNameForm('Message_UT_PC.xml', codes)).toBe('plain');
    expect(namesDependOnTransliteration(CODES)).toBe(true);
    expect(namesDependOnTransliteration({ node: 'ПК', peer: 'UT' })).toBe(true);
  });
});

describe('replyTransliterated', () => {
  it.each<[boolean, 'plain' | 'transliterated' | null, boolean]>([
    // Before 1C has written, the config decides.
    [false, null, false],
    [true, null, true],
    // Then the form of 1C's last message does, whatever the config says.
    [false, 'transliterated', true],
    [true, 'plain', false],
    [true, 'transliterated', true],
    [false, 'plain', false],
  ])('configured %s, 1C last wrote %s → %s', (configured, form, expected) => {
    expect(replyTransliterated(configured, form)).toBe(expected);
  });
});

describe('parseMessageName', () => {
  it.each([
    ['Message_УТ_XX.xml', { prefix: null, from: 'УТ', to: 'XX' }],
    ['Message_UT_PK.ZIP', { prefix: null, from: 'UT', to: 'PK' }],
    // 1C's own code is a UUID: its infobase prefix comes first.
    ['Message_БП_5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22_ПК.xml', { prefix: 'БП', from: '5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22', to: 'ПК' }],
    ['Message_ЦБ-1_Node 2.zip', { prefix: null, from: 'ЦБ-1', to: 'Node 2' }],
  ])('%s → %o', (name, codes) => {
    expect(isMessageFileName(name)).toBe(true);
    expect(parseMessageName(name)).toEqual(codes);
  });

  it.each([
    ['three parts without a UUID in the middle', 'Message_A_B_C.xml'],
    ['one part', 'Message_УТ.xml'],
    ['an empty code', 'Message_УТ_.xml'],
    ['four parts', 'Message_A_5b0e7c6a-1f2d-4c1e-9a77-3d2b8f0c1a22_B_C.xml'],
  ])('cannot tell the codes apart in %s (%s)', (_what, name) => {
    expect(isMessageFileName(name)).toBe(true);
    expect(parseMessageName(name)).toBeNull();
  });

  it.each([['message_УТ_XX.xml'], ['Message_УТ_XX.txt'], ['Message_УТ_XX'], ['.Message_УТ_XX.xml.tmp'], ['MessageУТ_XX.xml']])(
    '%s is not a message file',
    (name) => {
      expect(isMessageFileName(name)).toBe(false);
      expect(parseMessageName(name)).toBeNull();
    },
  );
});
