/** Small pieces shared by the pages: times, state badges, the tables of submissions, files, problems and actions, action buttons. */
import type { ConsoleLanguage } from '../../../config/console-schema.js';
import type { AuditItem, FileItem, SubmissionItem } from '../data/shapes.js';
import { formatBytes, formatTime } from '../format.js';
import { translateOr, type Translate } from '../i18n.js';
import { paths } from '../paths.js';

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
  if (props.rows.length === 0) return <p class="muted">{t('common.none')}</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>{t('col.externalId')}</th>
          <th>{t('col.state')}</th>
          <th>{t('col.attempts')}</th>
          <th>{t('col.platformId')}</th>
          <th>{t('col.error')}</th>
          <th>{t('col.updated')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            <td>
              <a href={paths.request(row.flow, row.externalId)}>{row.externalId}</a>
            </td>
            <td>
              <State t={t} state={row.state} />
            </td>
            <td class="num">{row.attempts}</td>
            <td>{row.platformId ?? (row.orderId ? <a href={paths.order(row.orderId)}>{row.orderId}</a> : '—')}</td>
            <td>
              {row.errorCode ? <code>{row.errorCode}</code> : null} <span class="message">{row.message ?? ''}</span>
            </td>
            <td>
              <Time at={row.updatedAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function FileTable(props: { t: Translate; flow: string; rows: readonly FileItem[] }) {
  const { t } = props;
  if (props.rows.length === 0) return <p class="muted">{t('common.none')}</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>{t('col.file')}</th>
          <th>{t('col.state')}</th>
          <th>{t('col.requests')}</th>
          <th>{t('col.problems')}</th>
          <th>{t('col.size')}</th>
          <th>{t('col.taken')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((file) => (
          <tr>
            <td>
              <a href={paths.file(props.flow, file.id)}>{file.originalName}</a>
            </td>
            <td>
              <State t={t} state={file.state} />
            </td>
            <td class="num">{file.requestCount}</td>
            <td class="num">{file.problemCount}</td>
            <td class="num">{formatBytes(file.sizeBytes)}</td>
            <td>
              <Time at={file.claimedAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function AuditTable(props: { t: Translate; rows: readonly AuditItem[]; showTarget?: boolean }) {
  const { t } = props;
  if (props.rows.length === 0) return null;
  return (
    <table class="audit">
      <thead>
        <tr>
          <th>{t('col.time')}</th>
          <th>{t('col.who')}</th>
          <th>{t('col.action')}</th>
          {props.showTarget ? <th>{t('col.target')}</th> : null}
          <th>{t('col.result')}</th>
          <th>{t('col.detail')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((entry) => (
          <tr>
            <td>
              <Time at={entry.at} />
            </td>
            <td>
              {entry.actor}
              {entry.address ? <span class="muted"> ({entry.address})</span> : null}
            </td>
            <td>{translateOr(t, `action.${entry.action}`, entry.action)}</td>
            {props.showTarget ? <td>{auditTarget(entry)}</td> : null}
            <td>
              <span class={`badge r-${entry.result}`}>{translateOr(t, `result.${entry.result}`, entry.result)}</span>
            </td>
            <td>{entry.detail ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
  field: string | null;
  column?: string | null;
  code: string;
  message: string;
  value: string | null;
}

/** Problems by row, field (and the column, for a preview), code, message and the cell's value. */
export function ProblemTable(props: { t: Translate; rows: readonly ProblemLine[]; withColumn?: boolean }) {
  const { t } = props;
  return (
    <table class="problems">
      <thead>
        <tr>
          <th>{t('col.row')}</th>
          <th>{t('col.field')}</th>
          {props.withColumn ? <th>{t('col.column')}</th> : null}
          <th>{t('col.code')}</th>
          <th>{t('col.message')}</th>
          <th>{t('col.value')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((p) => (
          <tr>
            <td class="num">{p.row ?? '—'}</td>
            <td>{p.field ?? '—'}</td>
            {props.withColumn ? <td>{p.column ?? '—'}</td> : null}
            <td>
              <code title={hintFor(t, p.code)}>{p.code}</code>
            </td>
            <td class="message">{p.message}</td>
            <td>{p.value !== null ? <code>{p.value}</code> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
