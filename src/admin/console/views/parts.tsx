/** Small pieces shared by the pages: times, state badges, the tables of submissions, files, problems and actions, action buttons. */
import type { ConsoleLanguage } from '../../../config/console-schema.js';
import type { MessageText } from '../../../shared/types.js';
import type { AuditItem, FileItem, SetAsideItem, SubmissionItem } from '../data/shapes.js';
import { formatBytes, formatTime } from '../format.js';
import { translateOr, type Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { DataTable } from './data-table.js';
import { errorWords, type ErrorWords } from './error-words.js';
import { parseJson } from '../data/shapes.js';

export function Time(props: { at: string | null | undefined }) {
  return props.at ? <time datetime={props.at}>{formatTime(props.at)}</time> : <span>—</span>;
}

/** An order's status from the platform, in words; one the catalogue does not know, as the platform sent it (data). */
export function OrderStatus(props: { t: Translate; status: string | null | undefined }) {
  if (!props.status) return <>—</>;
  const word = translateOr(props.t, `orderStatus.${props.status}`, '');
  return word !== '' ? <>{word}</> : <code>{props.status}</code>;
}

/** An export channel in words: a flow's acknowledgements (`ack:<flow>`), the order statuses (`status`); another as it is named. */
export function channelWord(t: Translate, channel: string): string {
  const [kind = channel, flow = ''] = channel.split(':');
  return translateOr(t, `channel.${kind}`, channel, { flow });
}

/**
 * A state's badge, worded for what is in that state: Russian agrees the word with its noun (a
 * request is «отклонена», a file «отклонён», a confirmation «отклонено»).
 */
export function State(props: { t: Translate; state: string; of?: 'request' | 'confirmation' | 'file' }) {
  return <span class={`badge s-${props.state}`}>{stateWord(props.t, props.state, props.of)}</span>;
}

/** A state in words, agreed with what it is the state of. */
export function stateWord(t: Translate, state: string, of?: 'request' | 'confirmation' | 'file'): string {
  const plain = translateOr(t, `state.${state}`, state);
  return of === undefined || of === 'request' ? plain : translateOr(t, `state.${of}.${state}`, plain);
}

/** A link styled as a button to an action's confirmation page (GET; the POST is made from there). */
export function ActionLink(props: { href: string; label: string }) {
  return (
    <a class="button" href={props.href}>
      {props.label}
    </a>
  );
}

export function SubmissionTable(props: { t: Translate; flow: string; rows: readonly SubmissionItem[] }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      columns={[
        { head: 'col.externalId', cell: (row) => <ExternalIdCell row={row} /> },
        { head: 'col.state', cell: (row) => <State t={t} state={row.state} of={row.kind} /> },
        { head: 'col.attempts', cell: (row) => row.attempts, class: 'num' },
        { head: 'col.platformId', cell: (row) => row.platformId ?? (row.orderId ? <a href={paths.order(row.orderId)}>{row.orderId}</a> : '—') },
        { head: 'col.error', cell: (row) => <ErrorCell t={t} code={row.errorCode} words={submissionErrorWords(t, row)} /> },
        { head: 'col.updated', cell: (row) => <Time at={row.updatedAt} /> },
      ]}
    />
  );
}

/**
 * A request by its externalId, linked to its page; a document's request sent under a number its
 * source has since changed (`ТДУТ-000012 …` renumbered `ТДУТ-000003`) shows the number it has now.
 */
export function ExternalIdCell(props: { row: Pick<SubmissionItem, 'flow' | 'externalId' | 'documentNumber'> }) {
  const { flow, externalId, documentNumber } = props.row;
  const renumbered = documentNumber !== null && externalId !== documentNumber && !externalId.startsWith(`${documentNumber} `);
  return (
    <>
      <a href={paths.request(flow, externalId)}>{externalId}</a>
      {renumbered ? <span class="muted nowrap"> → {documentNumber}</span> : null}
    </>
  );
}

/** An error's code and what it means in the console's language, with the platform's (or the system's) own words quoted. */
export function ErrorCell(props: { t: Translate; code: string | null; words: ErrorWords | null }) {
  return (
    <>
      {props.code ? <code>{props.code}</code> : null} <span class="message">{props.words?.text ?? ''}</span>
      {props.words?.quoted ? (
        <>
          {' '}
          <q class="said">{props.words.quoted}</q>
        </>
      ) : null}
    </>
  );
}

/** A submission row's error in words. */
export function submissionErrorWords(
  t: Translate,
  row: Pick<SubmissionItem, 'errorCode' | 'lastStatus' | 'result' | 'attempts' | 'message'>,
): ErrorWords | null {
  return errorWords(t, { code: row.errorCode, status: row.lastStatus, answer: parseJson(row.result), attempts: row.attempts, message: row.message });
}

/** `withHint`: a column of what to do about each file, from the code of its first problem (the attention page's rejected files). */
export function FileTable(props: { t: Translate; flow: string; rows: readonly (FileItem & { problemCode?: string | null })[]; withHint?: boolean }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      columns={[
        { head: 'col.file', cell: (file) => <a href={paths.file(props.flow, file.id)}>{file.originalName}</a> },
        { head: 'col.state', cell: (file) => <State t={t} state={file.state} of="file" /> },
        { head: 'col.requests', cell: (file) => file.requestCount, class: 'num' },
        { head: 'col.problems', cell: (file) => file.problemCount, class: 'num' },
        { head: 'col.size', cell: (file) => formatBytes(file.sizeBytes), class: 'num' },
        props.withHint && { head: 'col.whatToDo', cell: (file) => fileHint(t, file.problemCode), class: 'hint' },
        { head: 'col.taken', cell: (file) => <Time at={file.claimedAt} /> },
      ]}
    />
  );
}

/** Files set aside in `rejected/` before they were taken, each with its code and why. */
export function SetAsideTable(props: { t: Translate; rows: readonly SetAsideItem[] }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      class="set-aside-files"
      columns={[
        { head: 'col.file', cell: (file) => file.originalName },
        { head: 'col.code', cell: (file) => <code>{file.code}</code> },
        { head: 'col.message', cell: (file) => file.message },
        { head: 'col.size', cell: (file) => formatBytes(file.sizeBytes), class: 'num' },
        { head: 'col.time', cell: (file) => <Time at={file.setAsideAt} /> },
      ]}
    />
  );
}

export function AuditTable(props: { t: Translate; rows: readonly AuditItem[]; showTarget?: boolean }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      class="audit"
      empty={null}
      columns={[
        { head: 'col.time', cell: (entry) => <Time at={entry.at} /> },
        {
          head: 'col.who',
          cell: (entry) => (
            <>
              {entry.actor}
              {entry.address ? <span class="muted"> ({entry.address})</span> : null}
            </>
          ),
        },
        { head: 'col.action', cell: (entry) => translateOr(t, `action.${entry.action}`, entry.action) },
        props.showTarget && { head: 'col.target', cell: (entry) => auditTarget(entry) },
        {
          head: 'col.result',
          cell: (entry) => <span class={`badge r-${entry.result}`}>{translateOr(t, `result.${entry.result}`, entry.result)}</span>,
        },
        { head: 'col.detail', cell: (entry) => auditDetail(t, entry) },
      ]}
    />
  );
}

/** An audit entry's detail in the console's language (entries written before migration 9 show their English sentence). */
export function auditDetail(t: Translate, entry: Pick<AuditItem, 'detail' | 'detail_text'>): string {
  const text = entry.detail_text === null ? undefined : (parseJson(entry.detail_text) as MessageText | undefined);
  return (text && typeof text === 'object' && typeof text.key === 'string' ? t.text(text) : undefined) ?? entry.detail ?? '';
}

function auditTarget(entry: AuditItem) {
  if (!entry.flow || !entry.target) return entry.flow ?? '—';
  if (entry.action === 'retry-submission') return <a href={paths.request(entry.flow, entry.target)}>{`${entry.flow} / ${entry.target}`}</a>;
  if (entry.action === 'save-mapping') return <a href={paths.mapping(entry.flow)}>{`${entry.flow} / ${entry.target}`}</a>;
  if (entry.action === 'retake-file' && /^\d+$/.test(entry.target))
    return <a href={paths.file(entry.flow, Number(entry.target))}>{`${entry.flow} / ${entry.target}`}</a>;
  return `${entry.flow} / ${entry.target}`;
}

/** The hint for an error code, in the console's language; a confirmation's speaks of its order. */
export function hintFor(t: Translate, code: string | null | undefined, kind?: 'request' | 'confirmation'): string {
  const generic = translateOr(t, `hint.${code ?? ''}`, t('hint.generic'));
  return kind === 'confirmation' ? translateOr(t, `hint.confirmation.${code ?? ''}`, generic) : generic;
}

/**
 * What to do about a problem of a file, by its code: each code that a person fixes somewhere else
 * than in the data has its own hint (the config and a restart for the exchange's codes and
 * password, how to save for an encoding, the mapping page for a column); the rest are the data's,
 * fixed in the ERP (`hint.file`).
 */
export function fileHint(t: Translate, code: string | null | undefined): string {
  return translateOr(t, `hint.${code ?? ''}`, t('hint.file'));
}

/** The hints of a file's problems, each once, in the order of the problems. */
export function fileHints(t: Translate, problems: readonly { code: string }[]): string[] {
  return [...new Set(problems.map((problem) => fileHint(t, problem.code)))];
}

/** JSON for people: indented, in a <pre> (escaped by JSX like everything else). */
export function Json(props: { value: unknown }) {
  return <pre class="json">{JSON.stringify(props.value, null, 2)}</pre>;
}

export type { ConsoleLanguage };

/** A problem as the tables show it: a file's report, or the mapping page's preview (with the column read). */
export interface ProblemLine {
  row: number | null;
  /** Where in the file beyond the row: a sheet's cell (`Заявки!C7`), or an XML element's line and column. */
  cell?: string | null;
  line?: number | null;
  lineColumn?: number | null;
  field: string | null;
  /** The mapping's column (or path) the field reads, on the mapping page. */
  column?: string | null;
  code: string;
  /** The English sentence of the report and the log; shown only when the problem has no text of its own and its code none. */
  message: string;
  /** What is wrong, as the console words it. */
  text?: MessageText | null;
  value: string | null;
  /** The request (or order) the row belongs to. */
  externalId?: string | null;
}

/** Where a problem stands beyond its row, in the console's language: the cell, or the line and column. */
export function placeOf(t: Translate, problem: Pick<ProblemLine, 'cell' | 'line' | 'lineColumn'>): string | null {
  if (problem.cell) return problem.cell;
  if (problem.line === null || problem.line === undefined) return null;
  return t('mapping.lineColumn', { line: problem.line, column: problem.lineColumn ?? '—' });
}

/**
 * What is wrong, in the console's language: the problem's own text, else what its code means; and
 * the words of a parser or of the system it carries (`said`: `Unexpected token } in JSON at
 * position 7`), quoted as data after it, never translated.
 */
export function problemWords(t: Translate, problem: { code: string; text?: MessageText | null | undefined }): ErrorWords {
  const said = problem.text?.params?.said;
  return {
    text: (problem.text ? t.text(problem.text) : undefined) ?? t.code(problem.code),
    quoted: typeof said === 'string' && said !== '' ? said : null,
  };
}

/** `problemWords` without the quotation. */
export function problemMessage(t: Translate, problem: { code: string; text?: MessageText | null | undefined }): string {
  return problemWords(t, problem).text;
}

/** A problem in words, with what it quotes. */
export function ProblemMessage(props: { t: Translate; problem: { code: string; text?: MessageText | null | undefined } }) {
  const words = problemWords(props.t, props.problem);
  return (
    <>
      {words.text}
      {words.quoted ? (
        <>
          {' '}
          <q class="said">{words.quoted}</q>
        </>
      ) : null}
    </>
  );
}

/** An INN is read and searched whole: it never wraps mid-number (`code.inn`). */
function isInnField(field: string | null): boolean {
  return field !== null && /(^|\.)inn$/.test(field);
}

/** Problems by row (and cell), request, field (and the column, for a preview), code, message and the cell's value. */
export function ProblemTable(props: { t: Translate; rows: readonly ProblemLine[]; withColumn?: boolean }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      class="problems"
      columns={[
        {
          head: 'col.row',
          cell: (p) => {
            const place = placeOf(t, p);
            return place ? (
              <>
                {p.row ?? '—'} <span class="muted">{place}</span>
              </>
            ) : (
              (p.row ?? '—')
            );
          },
          class: 'num',
        },
        { head: 'col.externalId', cell: (p) => (p.externalId ? <code>{p.externalId}</code> : '—') },
        { head: 'col.field', cell: (p) => p.field ?? '—' },
        props.withColumn && { head: 'col.column', cell: (p) => p.column ?? '—' },
        { head: 'col.code', cell: (p) => <code title={fileHint(t, p.code)}>{p.code}</code> },
        { head: 'col.message', cell: (p) => <ProblemMessage t={t} problem={p} />, class: 'message' },
        { head: 'col.value', cell: (p) => (p.value !== null ? <code class={isInnField(p.field) ? 'inn' : undefined}>{p.value}</code> : '—') },
      ]}
    />
  );
}
