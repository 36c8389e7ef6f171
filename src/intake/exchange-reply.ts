/**
 * Our reply in the exchange folder (`Message_<node>_<peer>.xml`, in Latin letters when 1C named
 * its last message to us so: `replyTransliterated`): the settings that answer 1C's handshake, or
 * the acknowledgement of the last message taken. The store says when one is due
 * (`exchanges.reply_due`, set by the transaction that decided the message); it is written after
 * that commit is on disk, atomically (a temp name 1C's search does not match, fsync, rename), since
 * 1C may read the folder at any moment and forgets whatever we acknowledge. A reply that could not
 * be written stays due and is written again at the next scan (and at start, after a crash).
 *
 * The file is overwritten, never deleted: 1C reads it at every run, and without one it reports a
 * transport error; a reply it has read already is only "no new data" to it. A reply left under the
 * other form of the name (1C's setting was changed) is left too: 1C does not look for it.
 */
import { describeError } from '../errors.js';
import { replyName, replyTransliterated } from '../exchange/message-names.js';
import { renderReply } from '../exchange/render-reply.js';
import { exchangeStateOf, markReplyWritten } from '../store/exchanges.js';
import { writeFileAtomic } from '../shared/write-file-atomic.js';
import type { IntakeContext } from './intake-context.js';

/** Write the flow's reply if one is due. Returns whether one was written; a failure is logged and leaves it due. */
export async function writeDueReply(ctx: IntakeContext): Promise<boolean> {
  const exchange = ctx.flow.enterpriseData;
  if (!exchange) return false;
  const key = { flow: ctx.flow.name, node: exchange.node, peer: exchange.peer };
  const state = exchangeStateOf(ctx.db, key);
  if (!state || state.replyDue !== 1 || state.replyFormat === null) return false;
  const name = replyName(exchange, replyTransliterated(exchange.transliterateFileNames, state.peerNameForm));
  const log = ctx.logger.child({ component: 'intake', flow: ctx.flow.name, file: name });
  const settings = state.replyFormat === 'settings';
  const messageNo = settings ? 0 : state.sentNo;
  try {
    await ctx.durable();
    const text = renderReply({
      codes: exchange,
      exchangePlan: state.exchangePlan,
      versions: exchange.versions,
      format: settings ? 'settings' : { version: state.replyFormat },
      messageNo,
      receivedNo: state.replyReceivedNo,
      now: ctx.clock(),
    });
    await writeFileAtomic(ctx.dirs.inbox, name, Buffer.from(text, 'utf8'));
  } catch (error) {
    log.error(
      { code: 'EXPORT_WRITE_FAILED', err: error },
      `the exchange reply could not be written; it is written again at the next scan: ${describeError(error)}`,
    );
    return false;
  }
  markReplyWritten(ctx.db, key, state.sentNo, name, ctx.clock());
  log.info(
    { messageNo, receivedNo: state.replyReceivedNo, format: state.replyFormat },
    settings ? 'exchange settings written for 1C (answering its handshake)' : `acknowledgement written for 1C: message ${state.replyReceivedNo} received`,
  );
  return true;
}
