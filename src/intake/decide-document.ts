/**
 * A document seen again, decided against its request: pure, table-tested. A document has an
 * identity of its own in its source system (`document.id` of a mapping: 1C's `Ссылка`), apart from
 * the number the buyer sees, which 1C reuses every year and changes when it renumbers. 1C sends a
 * document whole again after every change, and a withdrawal (`УдалениеОбъекта`) when it is unposted
 * or deleted; the platform can neither update nor cancel a request, so:
 *
 * | the document comes again…              | its request is waiting, never claimed | it may have reached the platform (claimed once) |
 * |----------------------------------------|---------------------------------------|-------------------------------------------------|
 * | unchanged                              | nothing                               | nothing                                         |
 * | renumbered or redated, same content    | replaced (sent under the new number)  | the new number recorded                         |
 * | changed                                | replaced by the current version       | a notice: what changed, what to do              |
 * | withdrawn                              | withdrawn: never sent                 | a notice: cancel it on the platform             |
 *
 * "Claimed once" is `first_claimed_at`, set by delivery's first claim and never cleared: from then
 * on an attempt may have reached the platform under the request's key, so a new version under the
 * same key could be answered with the old one, and one under a new key would be a second request.
 * A request the platform refused (`rejected`) is corrected by a changed version, as any flow's is
 * (a new key), and withdrawn by a withdrawal. A withdrawn document posted again is the same
 * document: its withdrawn request is replaced and sent. A document never seen is withdrawn by
 * nothing (1C deletes many things).
 *
 * Every sighting of a document closes its problem notice (1C sent it again, and it was judged
 * afresh); a sighting with the content that was sent closes its edit notice; a posting closes its
 * withdrawal notice.
 */
import { NOTICE_KIND, NOTICE_RESOLUTION, type NoticeChange, type NoticeKind, type NoticeResolution } from '../store/document-notices.js';
import type { ExistingSubmission, PreparedSubmission } from '../store/record-file.js';
import type { MappedWithdrawal } from '../mapping/types.js';
import type { ReportNote } from '../shared/types.js';
import { describeChanges, type PayloadChange } from './describe-changes.js';
import { contentHashOfBody } from './submission-keys.js';

/** What a notice's `detail` holds, by kind (JSON in the store). */
export type NoticeDetail =
  | { kind: 'edited'; sentAs: string; changes: PayloadChange[] }
  | { kind: 'withdrawn'; sentAs: string }
  | { kind: 'problem'; problems: { code: string; field: string | null; message: string; text?: { key: string; params?: Record<string, string | number> } }[] };

/** What the recording does to the request of a document seen again. */
export type DocumentAction =
  /** The same payload: nothing. */
  | { action: 'duplicate' }
  /** A waiting request never claimed, or a withdrawn one: the new version replaces it, under the same key. */
  | { action: 'replace'; existing: ExistingSubmission }
  /** A rejected request: corrected by the new version, under a new key. */
  | { action: 'correct'; existing: ExistingSubmission }
  /** Sent, same content: only the new number (and date) is recorded. */
  | { action: 'renumber'; existing: ExistingSubmission }
  /** Sent, changed: nothing is sent; a notice says what changed. */
  | { action: 'edited'; existing: ExistingSubmission };

export interface DocumentOutcome {
  action: DocumentAction;
  notices: NoticeChange[];
  note: ReportNote | null;
}

/** Whether an attempt may have reached the platform: claimed once, whatever happened since. */
export const mayHaveBeenSent = (existing: Pick<ExistingSubmission, 'firstClaimedAt'>): boolean => existing.firstClaimedAt !== null;

const resolve = (documentId: string, kinds: NoticeKind[], resolution: NoticeResolution): NoticeChange => ({
  op: 'resolve',
  documentId,
  kinds,
  resolution,
});

/** A document came (again): its problem notice closes, as it was judged afresh. */
export const seenAgain = (documentId: string): NoticeChange => resolve(documentId, [NOTICE_KIND.problem], NOTICE_RESOLUTION.seenAgain);

/** The number to name a document by: the one the buyer sees, else its externalId. */
const nameOf = (submission: PreparedSubmission): string => submission.document?.number ?? submission.externalId;

/** A document (`submission.document` set) seen again: `existing` is its request in the outbox. */
export function decideDocument(submission: PreparedSubmission, existing: ExistingSubmission): DocumentOutcome {
  const id = submission.document!.id;
  const row = submission.firstRow;
  const number = nameOf(submission);
  const seen = seenAgain(id);
  const note = (key: string, message: string, params: Record<string, string | number> = {}): ReportNote => ({
    row,
    externalId: submission.externalId,
    message: `Row ${row}: ${message}`,
    text: { key, params: { number, ...params } },
  });
  // A request recorded before documents had an identity has no content hash stored: it is made from its body.
  const existingContent = existing.contentHash ?? contentHashOfBody(existing.payload);
  const sameContent = existingContent !== null && existingContent === (submission.contentHash ?? null);
  const posted = existing.state === 'withdrawn';

  if (existing.payloadHash === submission.payloadHash && !posted) {
    return {
      action: { action: 'duplicate' },
      notices: [seen, resolve(id, [NOTICE_KIND.edited], NOTICE_RESOLUTION.matchesSent), resolve(id, [NOTICE_KIND.withdrawn], NOTICE_RESOLUTION.postedAgain)],
      note: note('duplicate', `"${submission.externalId}" is already in the outbox with the same content; not recorded again`, {
        externalId: submission.externalId,
      }),
    };
  }
  if (posted || (existing.state === 'pending' && !mayHaveBeenSent(existing))) {
    const [key, message] = posted
      ? ['documentReposted', `${number} was posted again in 1C after it was withdrawn: it will be sent`]
      : sameContent
        ? ['documentRenumberedWaiting', `${number} was renumbered or redated before it was sent: it will be sent as it is now`]
        : ['documentReplaced', `${number} was changed before it was sent: the waiting request now holds the current version`];
    return { action: { action: 'replace', existing }, notices: [seen], note: note(key, message) };
  }
  if (existing.state === 'rejected' && !sameContent) {
    return { action: { action: 'correct', existing }, notices: [seen], note: null };
  }
  const sentAs = existing.platformId ?? existing.externalId;
  if (sameContent) {
    return {
      action: { action: 'renumber', existing },
      notices: [seen, resolve(id, [NOTICE_KIND.edited], NOTICE_RESOLUTION.matchesSent), resolve(id, [NOTICE_KIND.withdrawn], NOTICE_RESOLUTION.postedAgain)],
      note:
        existing.documentNumber === submission.document!.number && existing.documentDate === submission.document!.date
          ? null
          : note('documentRenumbered', `${number} was renumbered or redated in 1C after it was sent as ${sentAs}: only its new number is recorded`, { sentAs }),
    };
  }
  return {
    action: { action: 'edited', existing },
    notices: [
      seen,
      resolve(id, [NOTICE_KIND.withdrawn], NOTICE_RESOLUTION.postedAgain),
      editedNotice(submission, existing, describeChanges(existing.payload, submission.payload)),
    ],
    note: note('documentEdited', `${number} was changed in 1C after it was sent as ${sentAs}: not sent again (see the console's attention page)`, { sentAs }),
  };
}

/** The notice of a document changed after it was sent. */
export function editedNotice(
  submission: Pick<PreparedSubmission, 'document' | 'externalId'>,
  existing: ExistingSubmission,
  changes: PayloadChange[],
): NoticeChange {
  const detail: NoticeDetail = { kind: 'edited', sentAs: existing.externalId, changes };
  return {
    op: 'upsert',
    documentId: submission.document!.id,
    kind: NOTICE_KIND.edited,
    submissionId: existing.id,
    documentNumber: submission.document!.number ?? existing.documentNumber,
    detail: JSON.stringify(detail),
  };
}

/** What a withdrawal does to its document's request. */
export type WithdrawalAction =
  /** No request of it (1C deletes many things), or withdrawn already: nothing. */
  | { action: 'none' }
  /** Waiting and never claimed, or refused by the platform: withdrawn, never sent. */
  | { action: 'withdraw'; existing: ExistingSubmission }
  /** It may have reached the platform: a notice. */
  | { action: 'notice'; existing: ExistingSubmission };

export interface WithdrawalOutcome {
  action: WithdrawalAction;
  notices: NoticeChange[];
  note: ReportNote | null;
}

/** A withdrawal of a document: `existing` is its request, when it has one. */
export function decideWithdrawal(withdrawal: MappedWithdrawal, existing: ExistingSubmission | undefined): WithdrawalOutcome {
  const id = withdrawal.documentId;
  const seen = seenAgain(id);
  if (existing === undefined || existing.state === 'withdrawn') return { action: { action: 'none' }, notices: [seen], note: null };
  const number = existing.documentNumber ?? existing.externalId;
  const note = (key: string, message: string, params: Record<string, string | number> = {}): ReportNote => ({
    row: withdrawal.row,
    externalId: existing.externalId,
    message: `Row ${withdrawal.row}: ${message}`,
    text: { key, params: { number, ...params } },
  });
  if (existing.state === 'rejected' || (existing.state === 'pending' && !mayHaveBeenSent(existing))) {
    return {
      action: { action: 'withdraw', existing },
      notices: [seen],
      note: note('documentWithdrawnWaiting', `${number} was unposted or deleted in 1C before it was sent: it will not be sent`),
    };
  }
  const sentAs = existing.platformId ?? existing.externalId;
  return {
    action: { action: 'notice', existing },
    notices: [seen, resolve(id, [NOTICE_KIND.edited], NOTICE_RESOLUTION.superseded), withdrawnNotice(id, existing)],
    note: note('documentWithdrawnSent', `${number} was unposted or deleted in 1C after it was sent as ${sentAs}: cancel it on the platform`, { sentAs }),
  };
}

/** The notice of a document withdrawn after it was sent. */
export function withdrawnNotice(documentId: string, existing: ExistingSubmission): NoticeChange {
  const detail: NoticeDetail = { kind: 'withdrawn', sentAs: existing.externalId };
  return {
    op: 'upsert',
    documentId,
    kind: NOTICE_KIND.withdrawn,
    submissionId: existing.id,
    documentNumber: existing.documentNumber,
    detail: JSON.stringify(detail),
  };
}
