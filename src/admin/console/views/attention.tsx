/** `/attention`: everything held, dead-lettered, rejected or paused, each with its reason and what to do. */
import type { AttentionData, FlowAttention } from '../data/attention.js';
import { exchangeProblemCount } from '../data/exchange-problems.js';
import type { SubmissionItem } from '../data/shapes.js';
import { formatTime } from '../format.js';
import { translateOr, type Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { Layout } from './layout.js';
import { DataTable } from './data-table.js';
import { exportErrorWords } from './error-words.js';
import { ExchangeProblemList } from './exchange-problems.js';
import { ActionLink, AuditTable, ErrorCell, ExternalIdCell, FileTable, hintFor, SetAsideTable, submissionErrorWords, Time } from './parts.js';
import { NoticeTable } from './notices.js';
import type { ViewContext } from './view-context.js';

export function AttentionPage(props: { ctx: ViewContext; data: AttentionData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('attention.title')}>
      <h1>{t('attention.title')}</h1>
      <div id="attention" data-live="">
        {data.total === 0 ? <p class="ok-text">{t('attention.nothing')}</p> : null}
        {data.flows.map((flow) => (
          <FlowSection ctx={ctx} flow={flow} />
        ))}
        {data.setAside.total > 0 ? (
          <section>
            <h2>{t('attention.setAside')}</h2>
            <p class="hint">{hintFor(t, 'EXPORT_SET_ASIDE')}</p>
            <DataTable
              t={t}
              rows={data.setAside.rows}
              columns={[
                { head: 'col.channel', cell: (row) => row.channel },
                { head: 'col.file', cell: (row) => row.fileName ?? '—' },
                { head: 'col.error', cell: (row) => <ErrorCell t={t} code="EXPORT_SET_ASIDE" words={exportErrorWords(t, row.error)} />, class: 'message' },
                { head: 'col.time', cell: (row) => <Time at={row.createdAt} /> },
              ]}
            />
          </section>
        ) : null}
      </div>
    </Layout>
  );
}

function FlowSection(props: { ctx: ViewContext; flow: FlowAttention }) {
  const { ctx, flow } = props;
  const { t } = ctx;
  const exchangeProblems = exchangeProblemCount(flow.exchange);
  const empty =
    !flow.gate &&
    flow.held.total +
      flow.dead.total +
      flow.rejected.total +
      flow.rejectedFiles.total +
      flow.setAsideFiles.total +
      flow.pendingReports +
      flow.documents.total +
      exchangeProblems ===
      0 &&
    flow.actions.length === 0;
  if (empty) return null;
  return (
    <section class="card wide">
      <h2>{t('attention.flow', { flow: flow.flow })}</h2>
      {flow.gate ? (
        <div class="gate-problem">
          <h3>{t('attention.gate')}</h3>
          <p>
            <span class={`gate g-${flow.gate.mode}`}>{translateOr(t, `gate.${flow.gate.mode}`, flow.gate.mode)}</span>{' '}
            <span class="muted">{formatTime(new Date(flow.gate.nextProbeAt).toISOString())}</span>
          </p>
          <p class="hint">{hintFor(t, flow.gate.mode === 'paused' ? 'PLATFORM_UNAUTHORIZED' : 'PLATFORM_UNAVAILABLE')}</p>
          {ctx.actionsOn ? <ActionLink href={paths.resumeFlow(flow.flow)} label={t('attention.resume')} /> : null}
        </div>
      ) : null}
      {flow.exchange && exchangeProblems > 0 ? (
        <div>
          <h3>
            <a href={paths.exchange(flow.flow)}>{t('attention.exchange')}</a>
          </h3>
          <ExchangeProblemList t={t} problems={flow.exchange} />
        </div>
      ) : null}
      {flow.documents.total > 0 ? (
        <div id={`documents-${flow.flow}`}>
          <h3>
            {t('attention.documents')} <span class="muted">({flow.documents.total})</span>
          </h3>
          <p class="hint">{t('attention.documentsHint')}</p>
          <NoticeTable t={t} flow={flow.flow} rows={flow.documents.rows} actionsOn={ctx.actionsOn} />
          <More t={t} shown={flow.documents.rows.length} total={flow.documents.total} />
        </div>
      ) : null}
      <Rows t={t} flow={flow.flow} title={t('attention.dead')} listed={flow.dead} />
      {flow.dead.total > 0 && ctx.actionsOn ? <ActionLink href={paths.retryDead(flow.flow)} label={t('attention.retryDead')} /> : null}
      <Rows t={t} flow={flow.flow} title={t('attention.held')} listed={flow.held} />
      <Rows t={t} flow={flow.flow} title={t('attention.rejected')} listed={flow.rejected} />
      {flow.rejectedFiles.total > 0 ? (
        <div>
          <h3>{t('attention.rejectedFiles')}</h3>
          <FileTable t={t} flow={flow.flow} rows={flow.rejectedFiles.rows} withHint />
          <More t={t} shown={flow.rejectedFiles.rows.length} total={flow.rejectedFiles.total} />
        </div>
      ) : null}
      {flow.setAsideFiles.total > 0 ? (
        <div class="set-aside-files">
          <h3>{t('files.setAside')}</h3>
          <p class="hint">{t('hint.setAsideFile')}</p>
          <SetAsideTable t={t} rows={flow.setAsideFiles.rows} />
          <More t={t} shown={flow.setAsideFiles.rows.length} total={flow.setAsideFiles.total} />
        </div>
      ) : null}
      {flow.actions.length > 0 ? (
        <div>
          <h3>{t('attention.actions')}</h3>
          <AuditTable t={t} rows={flow.actions} />
        </div>
      ) : null}
      {flow.pendingReports > 0 ? (
        <p class="warn">
          {t('attention.pendingReports', { n: flow.pendingReports })} {hintFor(t, 'REPORT_WRITE_FAILED')}
        </p>
      ) : null}
    </section>
  );
}

function Rows(props: { t: Translate; flow: string; title: string; listed: { total: number; rows: SubmissionItem[] } }) {
  const { t } = props;
  if (props.listed.total === 0) return null;
  return (
    <div>
      <h3>
        {props.title} <span class="muted">({props.listed.total})</span>
      </h3>
      <DataTable
        t={t}
        rows={props.listed.rows}
        columns={[
          { head: 'col.externalId', cell: (row) => <ExternalIdCell row={row} /> },
          { head: 'col.error', cell: (row) => <ErrorCell t={t} code={row.errorCode} words={submissionErrorWords(t, row)} /> },
          { head: 'col.whatToDo', cell: (row) => hintFor(t, row.errorCode, row.kind), class: 'hint' },
          { head: 'col.updated', cell: (row) => <Time at={row.updatedAt} /> },
        ]}
      />
      <More t={t} shown={props.listed.rows.length} total={props.listed.total} />
    </div>
  );
}

function More(props: { t: Translate; shown: number; total: number }) {
  return props.total > props.shown ? <p class="muted">{props.t('common.more', { shown: props.shown, total: props.total })}</p> : null;
}
