/**
 * `renderReply` against the header reader 1C's messages go through, fuzzed: any node codes the
 * config accepts, any exchange plan the reader can have read from 1C (XML's special characters,
 * `]]>`, Cyrillic, tabs and line breaks inside), any declared versions, message numbers and time
 * read back as what was written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTERPRISEDATA_VERSIONS, enterpriseDataSchema } from '../../src/config/enterprisedata-schema.js';
import { DEFAULT_EXCHANGE_PLAN, RECEIVED_OBJECT_TYPES, renderReply, type ReplyInput } from '../../src/exchange/render-reply.js';
import { ENTERPRISEDATA_NAMESPACE as ED, readMessageHeader } from '../../src/mapping/readers/enterprisedata-header.js';
import { XML_DEFAULTS, chunksOf } from '../helpers/xml.js';

const NUM_RUNS = 1000;

/** Pieces of codes and names: XML's specials, Cyrillic, spaces of several kinds, an astral character. */
const PIECES = ['a', 'Z', '0', '9', '-', '_', '.', ' ', '\u00a0', '&', "'", '&amp;', ';', '#', '%', 'ПК', 'УТ', 'ё', 'Я', '😀', '\u0085'];
/**
 * Codes as the config takes them (1C compares them trimmed; no path, wildcard or control
 * characters, nothing XML cannot carry).
 */
const code = fc.oneof(fc.string({ unit: fc.constantFrom(...PIECES), minLength: 1, maxLength: 12 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }));
const codes = fc.record({ node: code, peer: code }).filter((c) => enterpriseDataSchema.safeParse(c).success);

/**
 * An exchange plan as `readMessageHeader` gives it (trimmed, not empty): any text XML can carry,
 * markup characters included, and a CR (the reader gives one for `&#13;` in 1C's file; the reply
 * must write it back as a reference, or it would come back as LF).
 */
const PLAN_PIECES = [
  'Синхронизация',
  'ДанныхЧерез',
  'a',
  ' ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '<',
  '>',
  '&',
  '"',
  "'",
  ']]>',
  '<!--',
  '&lt;',
  '😀',
  '\u0085',
  '\ufffd',
];
const exchangePlan = fc.option(fc.string({ unit: fc.constantFrom(...PLAN_PIECES), minLength: 1, maxLength: 10 }).filter((t) => t.trim() === t && t !== ''));

const input: fc.Arbitrary<ReplyInput> = fc
  .record({
    codes,
    exchangePlan,
    versions: fc.subarray([...ENTERPRISEDATA_VERSIONS], { minLength: 1 }),
    settings: fc.boolean(),
    pick: fc.nat(),
    messageNo: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 999_999_999_999_999 })),
    receivedNo: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 999_999_999_999_999 })),
    now: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
  })
  .map(({ settings, pick, versions, ...rest }) => ({
    ...rest,
    versions,
    format: settings ? ('settings' as const) : { version: versions[pick % versions.length]! },
  }));

describe('renderReply, read back by readMessageHeader', () => {
  it('gives back every field written', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (reply) => {
        const header = await readMessageHeader(chunksOf(renderReply(reply)), XML_DEFAULTS);
        expect(header).toEqual({
          format: reply.format === 'settings' ? ED : `${ED}/${reply.format.version}`,
          creationDate: new Date(reply.now).toISOString().slice(0, 19),
          exchangePlan: reply.exchangePlan ?? DEFAULT_EXCHANGE_PLAN,
          from: reply.codes.node,
          newFrom: null,
          to: reply.codes.peer,
          messageNo: reply.messageNo,
          receivedNo: reply.receivedNo,
          availableVersions: reply.versions,
          objectTypes: RECEIVED_OBJECT_TYPES.map((name) => ({ name, sending: '', receiving: '*' })),
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('an exchange plan with a CR keeps it, and codes XML cannot carry are refused by the config (found by the property above)', async () => {
    const reply: ReplyInput = {
      codes: { node: 'ПК', peer: 'УТ' },
      exchangePlan: 'Синхронизация\r\nДанных\rЧерез',
      versions: ['1.8'],
      format: { version: '1.8' },
      messageNo: 1,
      receivedNo: 0,
      now: Date.UTC(2027, 2, 15),
    };
    const header = await readMessageHeader(chunksOf(renderReply(reply)), XML_DEFAULTS);
    expect(header.exchangePlan).toBe('Синхронизация\r\nДанных\rЧерез');
    for (const code of ['a\uFFFE', 'a\uFFFF', 'a\uD800', '\uDC00b']) {
      expect(enterpriseDataSchema.safeParse({ node: code, peer: 'УТ' }).success).toBe(false);
    }
    expect(enterpriseDataSchema.safeParse({ node: 'a😀', peer: 'УТ' }).success).toBe(true);
  });
});
