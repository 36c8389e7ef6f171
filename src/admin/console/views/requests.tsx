/** `/flows/<flow>/requests` (the search) and `/flows/<flow>/requests/<externalId>` (the timeline). */
import type { RequestData, SearchData, SubmissionStory, TimelineEntry } from '../data/requests.js';
import { NoticeTable } from './notices.js';
import { formatDuration, formatTime } from '../format.js';
import { translateOr, type Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { Layout } from './layout.js';
import { attemptWords, errorWords, exportErrorWords } from './error-words.js';
import { ActionLink, auditDetail, ErrorCell, FileTable, hintFor, Json, State, stateWord, SubmissionTable, Time } from './parts.js';
import type { ViewContext } from './view-context.js';

export function SearchPage(props: { ctx: ViewContext; data: SearchData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('search.title', { flow: data.flow })}>
      <h1>{t('search.title', { flow: data.flow })}</h1>
      <form method="get" action={paths.search(data.flow)} class="search" role="search">
        <input type="search" name="q" value={data.q} placeholder={t('search.placeholder')} aria-label={t('search.placeholder')} autofocus />
        <button type="submit">{t('search.button')}</button>
      </form>
      {data.q === '' ? <p class="muted">{t('search.latest')}</p> : null}
      {data.q !== '' && data.submissions.length === 0 && data.files.length === 0 ? <p>{t('search.nothing', { q: data.q })}</p> : null}
      <div id="results" data-live="">
        {data.submissions.length > 0 ? <SubmissionTable t={t} flow={data.flow} rows={data.submissions} /> : null}
      </div>
      {data.files.length > 0 ? (
        <section>
          <h2>{t('search.files', { q: data.q })}</h2>
          <FileTable t={t} flow={data.flow} rows={data.files} />
        </section>
      ) : null}
    </Layout>
  );
}

export function RequestPage(props: { ctx: ViewContext; data: RequestData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  const first = data.submissions[0]!;
  const title = first.kind === 'confirmation' ? t('request.confirmationTitle', { id: data.externalId }) : t('request.title', { id: data.externalId });
  return (
    <Layout ctx={ctx} title={title}>
      <h1>
        {title} <span class="muted">({data.flow})</span>
      </h1>
      {data.document ? <p>{t('request.document', { number: data.document.number ?? '—', id: data.document.id })}</p> : null}
      {data.canRetry && ctx.actionsOn ? <ActionLink href={paths.retryRequest(data.flow, data.externalId)} label={t('request.retry')} /> : null}
      {data.notices.length > 0 ? (
        <section id="notices">
          <h2>{t('request.notices')}</h2>
          <NoticeTable t={t} flow={data.flow} rows={data.notices} actionsOn={ctx.actionsOn} />
        </section>
      ) : null}
      {data.order ? (
        <p>
          <a href={paths.order(data.order.orderId)}>{t('request.order', { id: data.order.orderId, status: data.order.status ?? '—' })}</a>
        </p>
      ) : first.kind === 'request' ? (
        <p class="muted">{t('request.noOrder')}</p>
      ) : null}
      <div id="stories" data-live="">
        {data.submissions.map((story) => (
          <Story ctx={ctx} flow={data.flow} story={story} />
        ))}
      </div>
    </Layout>
  );
}

function Story(props: { ctx: ViewContext; flow: string; story: SubmissionStory }) {
  const { ctx, story } = props;
  const { t } = ctx;
  return (
    <section class="story" id={`submission-${story.id}`}>
      <dl class="facts">
        <dt>{t('col.state')}</dt>
        <dd>
          <State t={t} state={story.state} of={story.kind} />
        </dd>
        <dt>{t('col.attempts')}</dt>
        <dd>{story.attempts}</dd>
        <dt>{t('col.platformId')}</dt>
        <dd>{story.platformId ?? '—'}</dd>
        <dt>{t('request.idempotencyKey')}</dt>
        <dd>
          <code>{readableKey(story.idempotencyKey)}</code>
          {readableKey(story.idempotencyKey) !== story.idempotencyKey ? (
            <div class="muted">
              {t('request.keyAsSent')} <code>{story.idempotencyKey}</code>
            </div>
          ) : null}
        </dd>
        {story.nextAttemptAt ? (
          <>
            <dt>{t('request.nextAttempt')}</dt>
            <dd>
              <Time at={story.nextAttemptAt} />
            </dd>
          </>
        ) : null}
      </dl>
      <ol class="timeline">
        {story.timeline.map((entry) => (
          <li class={`t-${entry.type}`}>
            <Time at={entry.at} /> <Entry t={t} ctx={ctx} flow={props.flow} kind={story.kind} entry={entry} />
          </li>
        ))}
      </ol>
      <details id={`payload-${story.id}`}>
        <summary>{t('request.payload')}</summary>
        <Json value={story.payload} />
      </details>
    </section>
  );
}

/**
 * The Idempotency-Key as people read it: the key is percent-encoded to travel in a header
 * (`erp1c:%D0%97%D0%9A-000101`); shown decoded (`erp1c:ЗК-000101`), the header's form beside it.
 */
export function readableKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

function Entry(props: { t: Translate; ctx: ViewContext; flow: string; kind: 'request' | 'confirmation'; entry: TimelineEntry }) {
  const { t, entry } = props;
  switch (entry.type) {
    case 'recorded':
      return entry.fileId !== null ? (
        <span>
          {t('timeline.recorded')} <a href={paths.file(props.flow, entry.fileId)}>{entry.fileName ?? `#${entry.fileId}`}</a>
          {entry.row !== null ? t('timeline.row', { row: entry.row }) : ''}
        </span>
      ) : (
        <span>{t('timeline.recordedNoFile')}</span>
      );
    case 'attempt':
      return (
        <span>
          <b>{t('timeline.attempt', { n: entry.number })}</b>: {entry.httpStatus ?? t('timeline.noAnswer')},{' '}
          {formatDuration(entry.durationMs, props.ctx.language)}, {entry.outcome ? <State t={t} state={entry.outcome} of={props.kind} /> : null}{' '}
          <span class="muted">X-Request-Id</span> <code>{entry.requestId}</code>
          {entry.error || entry.outcome ? (
            <div class="message">{attemptWords(t, { outcome: entry.outcome, status: entry.httpStatus, answer: entry.answer, error: entry.error })}</div>
          ) : null}
          {entry.answer !== null ? (
            <details id={`answer-${entry.requestId}`}>
              <summary>{t('timeline.answer')}</summary>
              <Json value={entry.answer} />
            </details>
          ) : null}
        </span>
      );
    case 'outcome':
      return (
        <span>
          <b>{t('timeline.outcome', { state: stateWord(t, entry.state, props.kind) })}</b>
          {entry.platformId ? ` ${entry.platformId}` : ''}{' '}
          {entry.errorCode ? (
            <ErrorCell
              t={t}
              code={entry.errorCode}
              words={errorWords(t, { code: entry.errorCode, status: entry.status, answer: entry.answer, attempts: entry.attempts, message: entry.message })}
            />
          ) : null}
          {entry.errorCode && entry.state !== 'accepted' ? <div class="hint">{hintFor(t, entry.errorCode, props.kind)}</div> : null}
        </span>
      );
    case 'acknowledgement':
      return (
        <span>
          {t('timeline.acknowledgement', { file: entry.fileName ?? '—', state: translateOr(t, `state.${entry.state}`, entry.state) })}
          {entry.error ? (
            <>
              {' '}
              <ErrorCell t={t} code={null} words={exportErrorWords(t, entry.error)} />
            </>
          ) : null}
        </span>
      );
    case 'event':
      return (
        <span>
          {t('timeline.event', { id: entry.eventId, status: entry.status ?? entry.eventType })} <span class="muted">({formatTime(entry.eventDate)})</span>
        </span>
      );
    case 'action':
      return (
        <span class="action">
          {t('timeline.action', {
            actor: entry.actor,
            action: translateOr(t, `action.${entry.action}`, entry.action),
            result: translateOr(t, `result.${entry.result}`, entry.result),
          })}{' '}
          {auditDetail(t, entry)}
        </span>
      );
  }
}
