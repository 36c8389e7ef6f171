/**
 * What an exchange flow's scan sees in its folder besides 1C's messages to it: message files for
 * other codes (`exchange/stray-messages.ts`), which the intake leaves alone and which would
 * otherwise go unmentioned while 1C and the connector wait for each other. Each scan hands over
 * the folder's names; the set is written to the store only when it changes (the scan is a hot
 * path), a file first seen is logged once with what its name tells, and one gone is forgotten.
 * A failure to write is logged and tried again at the next scan.
 */
import { describeError } from '../errors.js';
import { describeStrayMessage, strayMessagesIn } from '../exchange/stray-messages.js';
import { saveStrayMessages, strayMessagesOf, type FolderStray } from '../store/exchange-folders.js';
import { exchangeStateOf } from '../store/exchanges.js';
import type { IntakeContext } from './intake-context.js';

export interface ExchangeFolderWatch {
  /** One scan's listing of the folder's top level. Never throws. */
  observe(names: readonly string[]): void;
}

/** The watch of an exchange flow's folder; null for a flow without an exchange. */
export function createExchangeFolderWatch(ctx: IntakeContext): ExchangeFolderWatch | null {
  const exchange = ctx.flow.enterpriseData;
  if (!exchange) return null;
  const key = { flow: ctx.flow.name, node: exchange.node, peer: exchange.peer };
  const log = ctx.logger.child({ component: 'intake', flow: ctx.flow.name });
  /** The set as the store holds it (name → first seen), read at the first scan. */
  let known: Map<string, number> | null = null;
  /** Once this exchange has written a reply, a file under its name is ours; until then it is 1C's with the codes swapped. */
  let replied = false;
  return {
    observe(names) {
      try {
        known ??= new Map(strayMessagesOf(ctx.db, ctx.flow.name).map((stray) => [stray.name, stray.seenAt]));
        replied ||= (exchangeStateOf(ctx.db, key)?.replyWrittenAt ?? null) !== null;
        const strays = strayMessagesIn(names, exchange, replied);
        if (strays.length === known.size && strays.every((stray) => known!.has(stray.name))) return;
        const now = ctx.clock();
        const next: FolderStray[] = strays.map((stray) => ({ name: stray.name, seenAt: known!.get(stray.name) ?? now }));
        saveStrayMessages(ctx.db, ctx.flow.name, next, now);
        for (const stray of strays) {
          if (known.has(stray.name)) continue;
          log.warn(
            { file: stray.name, kind: stray.kind, from: stray.from, to: stray.to },
            `a message for other codes in the exchange folder: ${describeStrayMessage(stray, exchange)}`,
          );
        }
        const present = new Set(strays.map((stray) => stray.name));
        for (const name of known.keys()) if (!present.has(name)) log.info({ file: name }, 'the message for other codes is no longer in the exchange folder');
        known = new Map(next.map((stray) => [stray.name, stray.seenAt]));
      } catch (error) {
        log.error(
          { err: error },
          `the exchange folder's messages for other codes could not be recorded; tried again at the next scan: ${describeError(error)}`,
        );
      }
    },
  };
}
