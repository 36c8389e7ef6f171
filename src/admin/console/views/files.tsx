/** `/flows/<flow>/files` and `/flows/<flow>/files/<fileId>`: files with their problems as a table and the reports to download. */
import type { FileData, FilesData } from '../data/files.js';
import { formatBytes } from '../format.js';
import { paths } from '../paths.js';
import { Layout } from './layout.js';
import { ActionLink, AuditTable, fileHints, FileTable, ProblemTable, SetAsideTable, State, SubmissionTable, Time } from './parts.js';
import type { ViewContext } from './view-context.js';

const FILE_STATES = ['processing', 'archived', 'rejected'] as const;

export function FilesPage(props: { ctx: ViewContext; data: FilesData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('files.title', { flow: data.flow })}>
      <h1>{t('files.title', { flow: data.flow })}</h1>
      <p class="filters">
        <a class={data.state === null ? 'current' : ''} href={paths.files(data.flow)}>
          {t('files.all')}
        </a>
        {FILE_STATES.map((state) => (
          <a class={data.state === state ? 'current' : ''} href={paths.files(data.flow, state)}>
            <State t={t} state={state} of="file" />
          </a>
        ))}
      </p>
      <div id="files" data-live="">
        <FileTable t={t} flow={data.flow} rows={data.files} />
      </div>
      {data.nextBefore !== null ? <a href={paths.files(data.flow, data.state, data.nextBefore)}>{t('common.older')}</a> : null}
      {data.setAside.total > 0 ? (
        <section id="set-aside-files">
          <h2>{t('files.setAside')}</h2>
          <p class="hint">{t('hint.setAsideFile')}</p>
          <SetAsideTable t={t} rows={data.setAside.rows} />
          {data.setAside.total > data.setAside.rows.length ? (
            <p class="muted">{t('common.more', { shown: data.setAside.rows.length, total: data.setAside.total })}</p>
          ) : null}
        </section>
      ) : null}
    </Layout>
  );
}

export function FilePage(props: { ctx: ViewContext; data: FileData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  const { file } = data;
  return (
    <Layout ctx={ctx} title={t('file.title', { name: file.originalName })}>
      <h1>{t('file.title', { name: file.originalName })}</h1>
      {data.canRetake && ctx.actionsOn ? <ActionLink href={paths.retakeFile(data.flow, file.id)} label={t('file.retake')} /> : null}
      <dl class="facts">
        <dt>{t('col.state')}</dt>
        <dd>
          <State t={t} state={file.state} of="file" />
        </dd>
        <dt>{t('col.taken')}</dt>
        <dd>
          <Time at={file.claimedAt} />
        </dd>
        <dt>{t('col.size')}</dt>
        <dd>{formatBytes(file.sizeBytes)}</dd>
        <dt>{t('file.path')}</dt>
        <dd>
          <code>{file.path ?? '—'}</code>
        </dd>
        <dt>{t('file.sha256')}</dt>
        <dd>
          <code>{file.sha256}</code>
        </dd>
      </dl>
      {file.reportPending ? <p class="warn">{t('file.reportPending')}</p> : null}
      <section>
        <h2>{t('file.problems')}</h2>
        {data.reports ? (
          <p>
            {t('file.download')}{' '}
            <a href={data.reports.csv} download>
              CSV
            </a>{' '}
            ·{' '}
            <a href={data.reports.json} download>
              JSON
            </a>
          </p>
        ) : null}
        {data.problems.length > 0 && data.rows !== null ? (
          <p class="hint" id="row-numbering">
            {t(`file.rows.${data.rows}`)}
          </p>
        ) : null}
        {data.problems.length === 0 ? <p class="muted">{t('file.noProblems')}</p> : <ProblemTable t={t} rows={data.problems} />}
        {file.state === 'rejected' ? fileHints(t, data.problems).map((hint) => <p class="hint">{hint}</p>) : null}
      </section>
      {data.notes.length > 0 ? (
        <section>
          <h2>{t('file.notes')}</h2>
          <ul>
            {data.notes.map((note) => (
              <li>
                {note.row !== null ? `${t('col.row')} ${note.row}: ` : ''}
                {(note.text ? t.text(note.text) : undefined) ?? note.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {data.submissions.length > 0 ? (
        <section>
          <h2>{t('file.submissions')}</h2>
          <SubmissionTable t={t} flow={data.flow} rows={data.submissions} />
        </section>
      ) : null}
      <div id="file-audit">
        <AuditTable t={t} rows={data.audit} />
      </div>
    </Layout>
  );
}
