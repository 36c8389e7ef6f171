/**
 * `/requests` and `/files`: the requests and files of every flow in one list, each row naming its
 * flow, with the flow chooser (each flow's own page) above. The same search and filters as a flow's
 * own page, across flows.
 */
import type { AllFilesData, AllRequestsData } from '../data/all-lists.js';
import type { FileItem, SubmissionItem } from '../data/shapes.js';
import { formatBytes } from '../format.js';
import type { Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { DataTable } from './data-table.js';
import { Layout } from './layout.js';
import { ErrorCell, submissionErrorWords, State, Time } from './parts.js';
import type { ViewContext } from './view-context.js';

const FILE_STATES = ['processing', 'archived', 'rejected'] as const;

export function AllRequestsPage(props: { ctx: ViewContext; data: AllRequestsData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('lists.requestsTitle')}>
      <h1>{t('lists.requestsTitle')}</h1>
      <FlowChooser t={t} flows={data.flows} href={(flow) => paths.search(flow, data.q)} />
      <form method="get" action={paths.allRequests()} class="search" role="search">
        <input type="search" name="q" value={data.q} placeholder={t('search.placeholder')} aria-label={t('search.placeholder')} autofocus />
        <button type="submit">{t('search.button')}</button>
      </form>
      {data.q === '' ? <p class="muted">{t('lists.latest')}</p> : null}
      {data.q !== '' && data.submissions.length === 0 && data.files.length === 0 ? <p>{t('search.nothing', { q: data.q })}</p> : null}
      <div id="results" data-live="">
        {data.submissions.length > 0 || data.q === '' ? <FlowSubmissionTable t={t} rows={data.submissions} /> : null}
      </div>
      {data.files.length > 0 ? (
        <section>
          <h2>{t('search.files', { q: data.q })}</h2>
          <FlowFileTable t={t} rows={data.files} />
        </section>
      ) : null}
    </Layout>
  );
}

export function AllFilesPage(props: { ctx: ViewContext; data: AllFilesData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('lists.filesTitle')}>
      <h1>{t('lists.filesTitle')}</h1>
      <FlowChooser t={t} flows={data.flows} href={(flow) => paths.files(flow, data.state)} />
      <p class="filters">
        <a class={data.state === null ? 'current' : ''} href={paths.allFiles()}>
          {t('files.all')}
        </a>
        {FILE_STATES.map((state) => (
          <a class={data.state === state ? 'current' : ''} href={paths.allFiles(state)}>
            <State t={t} state={state} of="file" />
          </a>
        ))}
      </p>
      <div id="files" data-live="">
        <FlowFileTable t={t} rows={data.files} />
      </div>
      {data.nextBefore !== null ? <a href={paths.allFiles(data.state, data.nextBefore)}>{t('common.older')}</a> : null}
    </Layout>
  );
}

/** Links to each flow's own page (keeping the search or the filter). */
function FlowChooser(props: { t: Translate; flows: readonly string[]; href: (flow: string) => string }) {
  return (
    <p class="flow-chooser">
      <span class="muted">{props.t('lists.flows')}</span>{' '}
      {props.flows.map((flow) => (
        <a href={props.href(flow)}>{flow}</a>
      ))}
    </p>
  );
}

function FlowSubmissionTable(props: { t: Translate; rows: readonly SubmissionItem[] }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      columns={[
        { head: 'col.flow', cell: (row) => <a href={paths.search(row.flow)}>{row.flow}</a>, class: 'flow' },
        { head: 'col.externalId', cell: (row) => <a href={paths.request(row.flow, row.externalId)}>{row.externalId}</a> },
        { head: 'col.state', cell: (row) => <State t={t} state={row.state} /> },
        { head: 'col.attempts', cell: (row) => row.attempts, class: 'num' },
        { head: 'col.platformId', cell: (row) => row.platformId ?? (row.orderId ? <a href={paths.order(row.orderId)}>{row.orderId}</a> : '—') },
        { head: 'col.error', cell: (row) => <ErrorCell t={t} code={row.errorCode} words={submissionErrorWords(t, row)} /> },
        { head: 'col.updated', cell: (row) => <Time at={row.updatedAt} /> },
      ]}
    />
  );
}

function FlowFileTable(props: { t: Translate; rows: readonly FileItem[] }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      columns={[
        { head: 'col.flow', cell: (file) => <a href={paths.files(file.flow)}>{file.flow}</a>, class: 'flow' },
        { head: 'col.file', cell: (file) => <a href={paths.file(file.flow, file.id)}>{file.originalName}</a> },
        { head: 'col.state', cell: (file) => <State t={t} state={file.state} of="file" /> },
        { head: 'col.requests', cell: (file) => file.requestCount, class: 'num' },
        { head: 'col.problems', cell: (file) => file.problemCount, class: 'num' },
        { head: 'col.size', cell: (file) => formatBytes(file.sizeBytes), class: 'num' },
        { head: 'col.taken', cell: (file) => <Time at={file.claimedAt} /> },
      ]}
    />
  );
}
