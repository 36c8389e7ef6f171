/** Small pieces shared by the pages: times, state badges, the tables of submissions, files, problems and actions, action buttons. */
import type { ConsoleLanguage } from '../../../config/console-schema.js';
import type { AuditItem, FileItem, SubmissionItem } from '../data/shapes.js';
import { formatBytes, formatTime } from '../format.js';
import { translateOr, type Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { DataTable } from './data-table.js';

export function Time(props: { at: string | null | undefined }) {
  return props.at ? <time datetime={props.at}>{formatTime(props.at)}</time> : <span>—</span>;
}

export function State(props: { t: Translate; state: string }) {
  return <span class={`badge s-${props.state}`}>{translateOr(props.t, `state.${props.state}`, props.state)}</span>;
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
        { head: 'col.externalId', cell: (row) => <a href={paths.request(row.flow, row.externalId)}>{row.externalId}</a> },
        { head: 'col.state', cell: (row) => <State t={t} state={row.state} /> },
        { head: 'col.attempts', cell: (row) => row.attempts, class: 'num' },
        { head: 'col.platformId', cell: (row) => row.platformId ?? (row.orderId ? <a href={paths.order(row.orderId)}>{row.orderId}</a> : '—') },
        { head: 'col.error', cell: (row) => <ErrorCell code={row.errorCode} message={row.message} /> },
        { head: 'col.updated', cell: (row) => <Time at={row.updatedAt} /> },
      ]}
    />
  );
}

/** An error's code and message, side by side. */
export function ErrorCell(props: { code: string | null; message: string | null }) {
  return (
    <>
      {props.code ? <code>{props.code}</code> : null} <span class="message">{props.message ?? ''}</span>
    </>
  );
}

export function FileTable(props: { t: Translate; flow: string; rows: readonly FileItem[] }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      columns={[
        { head: 'col.file', cell: (file) => <a href={paths.file(props.flow, file.id)}>{file.originalName}</a> },
        { head: 'col.state', cell: (file) => <State t={t} state={file.state} /> },
        { head: 'col.requests', cell: (file) => file.requestCount, class: 'num' },
        { head: 'col.problems', cell: (file) => file.problemCount, class: 'num' },
        { head: 'col.size', cell: (file) => formatBytes(file.sizeBytes), class: 'num' },
        { head: 'col.taken', cell: (file) => <Time at={file.claimedAt} /> },
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
        { head: 'col.detail', cell: (entry) => entry.detail ?? '' },
      ]}
    />
  );
}

function auditTarget(entry: AuditItem) {
  if (!entry.flow || !entry.target) return entry.flow ?? '—';
  if (entry.action === 'retry-submission') return <a href={paths.request(entry.flow, entry.target)}>{`${entry.flow} / ${entry.target}`}</a>;
  if (entry.action === 'save-mapping') return <a href={paths.mapping(entry.flow)}>{`${entry.flow} / ${entry.target}`}</a>;
  if (entry.action === 'retake-file' && /^\d+$/.test(entry.target))
    return <a href={paths.file(entry.flow, Number(entry.target))}>{`${entry.flow} / ${entry.target}`}</a>;
  return `${entry.flow} / ${entry.target}`;
}

/** The hint for an error code, in the console's language. */
export function hintFor(t: Translate, code: string | null | undefined): string {
  return translateOr(t, `hint.${code ?? ''}`, t('hint.generic'));
}

/** JSON for people: indented, in a <pre> (escaped by JSX like everything else). */
export function Json(props: { value: unknown }) {
  return <pre class="json">{JSON.stringify(props.value, null, 2)}</pre>;
}

export type { ConsoleLanguage };

/** A problem as the tables show it: a file's report, or the mapping page's preview (with the column read). */
export interface ProblemLine {
  row: number | null;
  /** Where in the file beyond the row: a sheet's cell (`Заявки!C7`), an XML element's line and column. */
  place?: string | null;
  field: string | null;
  column?: string | null;
  code: string;
  message: string;
  value: string | null;
  /** The request (or order) the row belongs to. */
  externalId?: string | null;
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
          cell: (p) =>
            p.place ? (
              <>
                {p.row ?? '—'} <span class="muted">{p.place}</span>
              </>
            ) : (
              (p.row ?? '—')
            ),
          class: 'num',
        },
        { head: 'col.externalId', cell: (p) => (p.externalId ? <code>{p.externalId}</code> : '—') },
        { head: 'col.field', cell: (p) => p.field ?? '—' },
        props.withColumn && { head: 'col.column', cell: (p) => p.column ?? '—' },
        { head: 'col.code', cell: (p) => <code title={hintFor(t, p.code)}>{p.code}</code> },
        { head: 'col.message', cell: (p) => p.message, class: 'message' },
        { head: 'col.value', cell: (p) => (p.value !== null ? <code>{p.value}</code> : '—') },
      ]}
    />
  );
}
