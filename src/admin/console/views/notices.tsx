/**
 * Document notices as a table: the document by the number its buyer knows it by, what happened to
 * it in its source (changed after it was sent, with what changed; withdrawn after it was sent; kept
 * back by a problem), the request it was sent as, and what to do. Shown on `/attention` and on a
 * request's page.
 */
import type { NoticeChangeItem, NoticeItem } from '../data/notices.js';
import { translateOr, type Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { DataTable } from './data-table.js';
import { ActionLink, ProblemMessage, State, Time } from './parts.js';

export function NoticeTable(props: { t: Translate; flow: string; rows: readonly NoticeItem[]; actionsOn: boolean }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      columns={[
        { head: 'col.document', cell: (row) => <span class="nowrap">{row.documentNumber ?? row.documentId}</span> },
        { head: 'col.whatHappened', cell: (row) => <NoticeWhat t={t} notice={row} />, class: 'message' },
        {
          head: 'col.sentAs',
          cell: (row) =>
            row.externalId === null ? (
              '—'
            ) : (
              <span>
                <a href={paths.request(props.flow, row.externalId)}>{row.platformId ?? row.externalId}</a>{' '}
                {row.state === null ? null : <State t={t} state={row.state} />}
              </span>
            ),
        },
        {
          head: 'col.whatToDo',
          cell: (row) => translateOr(t, `notice.hint.${row.kind}`, row.kind, { sentAs: row.platformId ?? row.externalId ?? '—' }),
          class: 'hint',
        },
        { head: 'col.updated', cell: (row) => <Time at={row.updatedAt} /> },
        props.actionsOn && {
          head: 'col.action',
          cell: (row) => (row.resolvedAt === null ? <ActionLink href={paths.resolveNotice(props.flow, row.id)} label={t('notice.resolve')} /> : null),
        },
      ]}
    />
  );
}

/** What happened to the document, with what changed or what was wrong. */
function NoticeWhat(props: { t: Translate; notice: NoticeItem }) {
  const { t, notice } = props;
  return (
    <div>
      <strong>{translateOr(t, `notice.kind.${notice.kind}`, notice.kind)}</strong>
      {notice.changes.length > 0 ? (
        <ul class="changes">
          {notice.changes.map((change) => (
            <li>{changeText(t, change)}</li>
          ))}
        </ul>
      ) : null}
      {notice.problems.length > 0 ? (
        <ul class="changes">
          {notice.problems.map((problem) => (
            <li>
              <code>{problem.code}</code> {problem.field ? <code>{problem.field}</code> : null} <ProblemMessage t={t} problem={problem} />
            </li>
          ))}
        </ul>
      ) : null}
      {notice.resolvedAt === null ? null : (
        <p class="muted">
          {translateOr(t, `notice.resolution.${notice.resolution ?? ''}`, notice.resolution ?? '')} <Time at={notice.resolvedAt} />
        </p>
      )}
    </div>
  );
}

const shown = (value: string | number | null): string => (value === null ? '—' : String(value));

/** `Date wanted: 2030-03-20 → 2030-03-25`; `Бумага А4: 10 → 12 шт`; a line added or removed. */
function changeText(t: Translate, change: NoticeChangeItem): string {
  if (change.what === 'field') {
    return t('notice.change.field', { field: translateOr(t, `notice.field.${change.field}`, change.field), from: shown(change.from), to: shown(change.to) });
  }
  if (change.from === null) return t('notice.change.lineAdded', { name: change.name, quantity: shown(change.to), unit: change.unit });
  if (change.to === null) return t('notice.change.lineRemoved', { name: change.name, quantity: shown(change.from), unit: change.unit });
  return t('notice.change.quantity', { name: change.name, from: shown(change.from), to: shown(change.to), unit: change.unit });
}
