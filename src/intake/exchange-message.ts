/**
 * One of 1C's exchange messages, claimed like any file (by its SHA-256, moved into `processing/`)
 * and then read in two passes: its header first, which says what the message is
 * (`exchange/decide-message.ts`), then, for a data message to take, its body through the flow's
 * mapping, as any file is mapped and recorded.
 *
 * The message's requests, its number and the acknowledgement now due are written by the one
 * transaction that decides the file (`MessageOutcome.alsoRecord`), so a crash anywhere leaves
 * either the whole message taken, or nothing of it and the file back for recovery. The reply is
 * written after that commit is on disk (`exchange-reply.ts`): 1C forgets what we acknowledge, so an
 * acknowledgement must never outrun the requests it stands for. The same transaction keeps under
 * which name the message came (the codes as they are, or transliterated): our reply is named alike.
 *
 * A message read whole is archived even when it holds no purchase order (most of 1C's messages
 * carry catalogue changes) or when every order in it has a problem; only a message that could not
 * be read whole (malformed, cut short, changed while read) or was refused is rejected, and then
 * nothing is acknowledged: 1C sends those changes again in its next message.
 */
import type { InputHandle } from '../shared/input-file.js';
import { XML_DEFAULTS } from '../config/mapping-schema.js';
import { describeError, isConnectorError } from '../errors.js';
import { decideMessage, type MessageDecision } from '../exchange/decide-message.js';
import { namesDependOnTransliteration, peerNameForm, replyName, replyTransliterated } from '../exchange/message-names.js';
import { readMessageHeader, type MessageHeader } from '../mapping/readers/enterprisedata-header.js';
import { nextExchangeState } from '../exchange/next-exchange-state.js';
import { xmlBytes } from '../mapping/readers/xml-reader.js';
import type { MappedItem } from '../mapping/types.js';
import { exchangeStateOf, recordExchangeMessage, saveExchange, type ExchangeKey, type ExchangeNameForm } from '../store/exchanges.js';
import type { FileRecord } from '../store/files.js';
import type { RecordFileResult } from '../store/record-file.js';
import type { ReportNote } from '../shared/types.js';
import { writeDueReply } from './exchange-reply.js';
import { fileLogger, type IntakeContext } from './intake-context.js';
import type { MessageOutcome } from './record-mapped-file.js';
import { oneItem, recordAndMove, unlessChanged, type SeenFile } from './record-and-move.js';

/** The exchange of a flow that has one. */
export function exchangeKeyOf(ctx: IntakeContext): ExchangeKey | undefined {
  const exchange = ctx.flow.enterpriseData;
  return exchange ? { flow: ctx.flow.name, node: exchange.node, peer: exchange.peer } : undefined;
}

async function* nothing(): AsyncGenerator<MappedItem> {}

export async function processExchangeMessage(ctx: IntakeContext, row: FileRecord, handle: InputHandle, seen: SeenFile): Promise<RecordFileResult> {
  const exchange = ctx.flow.enterpriseData!;
  const key = exchangeKeyOf(ctx)!;
  const log = fileLogger(ctx, row.originalName);
  const name = row.originalName;

  let header: MessageHeader | null = null;
  let decision: MessageDecision | null = null;
  let items: AsyncIterable<MappedItem>;
  const notes: ReportNote[] = [];
  try {
    // The header is read with the default limits: 1C writes it small, in UTF-8, whatever the mapping reads the body with.
    const xml = XML_DEFAULTS;
    header = await readMessageHeader(xmlBytes(handle, xml, { archivePassword: exchange.password }), xml);
    decision = decideMessage(header, exchange, exchange.versions, { lastTakenNo: exchangeStateOf(ctx.db, key)?.lastTakenNo ?? 0 });
    items = itemsOf(ctx, decision, header, { handle, name }, notes);
  } catch (error) {
    if (!isConnectorError(error)) throw error;
    log.warn({ code: error.code, err: error }, `exchange message could not be read: ${describeError(error)}`);
    items = oneItem({
      kind: 'problem',
      problem: { row: null, field: null, code: error.code, message: `${name} ${error.message}`, text: error.text, ...placeOf(error.details) },
    });
  }
  // Under which name 1C wrote: it names our reply, since 1C looks only for names of the form it writes.
  const nameForm = namesDependOnTransliteration(exchange) ? peerNameForm(name, exchange) : null;
  let nameFormChanged = false;
  let kind = 'refused';
  const exchangeOutcome: MessageOutcome = {
    notes,
    alsoRecord: (state) => {
      const now = ctx.clock();
      const previous = exchangeStateOf(ctx.db, key);
      const change = nextExchangeState(previous, header, decision, state === 'archived', now);
      kind = change.kind;
      nameFormChanged = nameForm !== null && nameForm !== previous?.peerNameForm;
      saveExchange(ctx.db, key, nameForm === null ? change.patch : { ...change.patch, peerNameForm: nameForm });
      recordExchangeMessage(ctx.db, key, {
        fileId: row.id,
        kind: change.kind,
        no: header?.messageNo ?? null,
        receivedNo: header?.receivedNo ?? null,
        format: header?.format ?? null,
        now,
      });
    },
  };
  const result = await recordAndMove(ctx, row, unlessChanged(items, handle, seen, name, ctx.disk), { exchange: exchangeOutcome });
  ctx.metrics?.exchangeMessages?.inc({ flow: ctx.flow.name, kind });
  log.info(
    {
      fileId: row.id,
      messageNo: header?.messageNo ?? null,
      receivedNo: header?.receivedNo ?? null,
      kind,
      state: result.state,
    },
    kind === 'refused' ? 'exchange message refused; nothing acknowledged' : `exchange message read: ${kind}`,
  );
  if (nameFormChanged && nameForm !== null) logNameForm(ctx, nameForm);
  if (decision?.kind === 'settings' && decision.agreedVersion === null) {
    log.warn(
      { code: 'EXCHANGE_VERSION_UNSUPPORTED', theirs: header!.availableVersions, ours: exchange.versions },
      "1C's settings share no EnterpriseData version with this flow: 1C cannot exchange until one is shared (see the exchange page)",
    );
  }
  await writeDueReply(ctx);
  return result;
}

/** 1C names its messages under another form than before: our reply follows, and a config that says otherwise is told, once. */
function logNameForm(ctx: IntakeContext, form: ExchangeNameForm): void {
  const exchange = ctx.flow.enterpriseData!;
  const transliterated = form === 'transliterated';
  const reply = replyName(exchange, replyTransliterated(exchange.transliterateFileNames, form));
  const log = ctx.logger.child({ component: 'intake', flow: ctx.flow.name });
  if (transliterated === exchange.transliterateFileNames) {
    log.info({ reply }, `1C names its messages ${transliterated ? 'in Latin letters' : 'with the codes as they are'}; the reply is named ${reply}`);
    return;
  }
  log.warn(
    { reply, transliterateFileNames: exchange.transliterateFileNames },
    `1C names its messages ${transliterated ? 'in Latin letters (its "transliterate file names" is on)' : 'with the codes as they are (its "transliterate file names" is off)'}, while enterpriseData.transliterateFileNames is ${exchange.transliterateFileNames}: the reply follows 1C and is named ${reply}; set transliterateFileNames: ${transliterated} to agree`,
  );
}

/** The file-level place (line and column) a reader's error carries, for the report. */
function placeOf(details: Record<string, unknown>): { line?: number; column?: number } {
  return {
    ...(typeof details.line === 'number' ? { line: details.line } : {}),
    ...(typeof details.column === 'number' ? { column: details.column } : {}),
  };
}

/** The items recorded for a message, by what it was decided to be; the notes say what that was. */
function itemsOf(
  ctx: IntakeContext,
  decision: MessageDecision,
  header: MessageHeader,
  input: { handle: InputHandle; name: string },
  notes: ReportNote[],
): AsyncIterable<MappedItem> {
  const exchange = ctx.flow.enterpriseData!;
  switch (decision.kind) {
    case 'refuse':
      return oneItem({
        kind: 'problem',
        problem: { row: null, field: null, code: decision.code, message: `${input.name} ${decision.reason}`, text: decision.text },
      });
    case 'settings':
      notes.push({
        row: null,
        text:
          decision.agreedVersion === null
            ? { key: 'exchangeNoVersion', params: { theirs: header.availableVersions.join(', ') || '—', ours: exchange.versions.join(', ') } }
            : { key: 'exchangeSettings', params: { theirs: header.availableVersions.join(', '), agreed: decision.agreedVersion } },
        message:
          decision.agreedVersion === null
            ? `1C's settings: it reads EnterpriseData ${header.availableVersions.join(', ') || '(no version)'}, none of which this flow reads (${exchange.versions.join(', ')}); answered with this program's settings, but 1C cannot exchange until a version is shared`
            : `1C's settings (the synchronization's handshake): it reads EnterpriseData ${header.availableVersions.join(', ')}; the exchange will be in ${decision.agreedVersion}; answered with this program's settings`,
      });
      return nothing();
    case 'stale':
      notes.push({
        row: null,
        text: { key: 'exchangeStale', params: { no: decision.messageNo, last: decision.lastTakenNo } },
        message: `Message ${decision.messageNo} was taken before (the last one taken is ${decision.lastTakenNo}): 1C wrote it again after a failure of its own; its documents are not read again`,
      });
      return nothing();
    case 'data':
      notes.push({
        row: null,
        text:
          decision.messageNo === null
            ? { key: 'exchangeUnnumbered', params: { version: decision.version } }
            : { key: 'exchangeData', params: { no: decision.messageNo, version: decision.version } },
        message:
          decision.messageNo === null
            ? `A message without a number (EnterpriseData ${decision.version}): its documents are read; nothing is acknowledged for it`
            : `Message ${decision.messageNo} (EnterpriseData ${decision.version}): its purchase orders are read, and it is acknowledged to 1C once recorded`,
      });
      return ctx.mapItems(input, decision.messageNo === null ? input.name : `${input.name} (message ${decision.messageNo})`);
  }
}
