/**
 * `flows[].enterpriseData`: the flow is a correspondent of 1C's data synchronization in the
 * universal format (EnterpriseData, exchange plan `СинхронизацияДанныхЧерезУниверсальныйФормат`)
 * over a folder. Its `inbox` is the exchange folder the 1C administrator names in 1C; 1C writes
 * `Message_<peer>_<node>.xml` (or `.zip`) there and reads our `Message_<node>_<peer>.xml`.
 */
import { z } from 'zod';

/**
 * The EnterpriseData versions whose `Документ.ЗаказПоставщику` the `enterprisedata` preset reads,
 * each checked against 1C's published schema of that version (the Standard Subsystems Library's
 * packages up to 1.21; 1.22's, whose purchase order is 1.21's, as УТ 11.5.27 ships it;
 * docs/enterprisedata.md lists what moved between them). Declared to 1C in the settings message; 1C then writes in the highest
 * version both sides know.
 */
export const ENTERPRISEDATA_VERSIONS = ['1.6', '1.7', '1.8', '1.10', '1.11', '1.12', '1.15', '1.16', '1.17', '1.18', '1.19', '1.20', '1.21', '1.22'] as const;
export type EnterpriseDataVersion = (typeof ENTERPRISEDATA_VERSIONS)[number];

/** A UUID, as 1C's own node code is in current versions of its Standard Subsystems Library (`NewFrom` in its messages). */
export function isExchangeUuid(code: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(code);
}

/**
 * A node code as 1C compares it (exactly, after trimming): it also names the message files, so it
 * may hold no path separator, no control character and no wildcard 1C's file search would read.
 */
const nodeCode = z
  .string()
  .min(1, 'must be the code entered in 1C')
  .max(150, 'must be at most 150 characters')
  .refine((code) => code.trim() === code, 'must not start or end with a space (1C trims codes)')
  // eslint-disable-next-line no-control-regex
  .refine((code) => !/[/\\:*?"<>|\u0000-\u001f\u007f]/.test(code), 'must not contain / \\ : * ? " < > | or control characters (it is part of a file name)')
  // XML 1.0 cannot carry these: a reply naming the code would not parse.
  .refine((code) => !/[\uFFFE\uFFFF]|\p{Cs}/u.test(code), 'must not contain U+FFFE, U+FFFF or a lone surrogate (XML cannot carry them)');

export const enterpriseDataSchema = z
  .strictObject({
    /**
     * This program's code in the exchange: the infobase prefix (at most two characters) the
     * administrator types for the other program in 1C's synchronization wizard («Префикс» under
     * «Общие параметры»). 1C writes its messages to it (`Message_<peer>_<node>`).
     */
    node: nodeCode.describe(
      "This program's code in the exchange: the prefix (at most two characters) the administrator types for the other program in 1C's synchronization wizard.",
    ),
    /**
     * 1C's own code in the exchange: its infobase prefix (Администрирование → Общие настройки →
     * «Префикс этой информационной базы»), which its messages carry in `From`; its exchange UUID
     * (`NewFrom`, 36 characters) is accepted too. Our replies are addressed to it.
     */
    peer: nodeCode.describe("1C's own code in the exchange: its infobase prefix (From in its messages), or its exchange UUID (NewFrom)."),
    /** The EnterpriseData versions declared to 1C (default: every version the preset reads). 1C writes in the highest one both know. */
    versions: z
      .array(z.enum(ENTERPRISEDATA_VERSIONS))
      .min(1)
      .default([...ENTERPRISEDATA_VERSIONS])
      .describe('EnterpriseData versions declared to 1C (default: every version the preset reads).'),
    /**
     * The password of 1C's compressed messages ("Пароль архива"), when 1C is set to compress them
     * with one; a secret (`{ fromCredential: … }`). Our replies are plain XML, which 1C reads whatever
     * its compression setting.
     */
    password: z
      .string()
      .min(1)
      .optional()
      .describe("The password of 1C's compressed messages, when it sets one (a secret: fromCredential, fromFile, fromEnv)."),
    /**
     * 1C is set to transliterate the message file names ("Транслитерация имен файлов"): our reply is
     * named in Latin letters too. Only until 1C has written: from then on the reply is named as 1C
     * named its last message to us, since 1C looks only for names of the form it writes. Default false.
     */
    transliterateFileNames: z
      .boolean()
      .default(false)
      .describe(
        "1C transliterates the exchange's file names (its setting of the same name): our reply is named in Latin letters too, until 1C's own messages show its setting. Default false.",
      ),
  })
  .superRefine((exchange, ctx) => {
    if (exchange.node === exchange.peer) ctx.addIssue({ code: 'custom', path: ['peer'], message: 'must differ from node (the two ends of the exchange)' });
  });
export type EnterpriseDataConfig = z.infer<typeof enterpriseDataSchema>;
