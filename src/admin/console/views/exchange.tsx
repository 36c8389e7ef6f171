/** `/flows/<flow>/exchange`: a flow's exchange with 1C, its state and the last messages read. */
import type { ExchangeData, ExchangeSummary } from '../data/exchange.js';
import type { Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { DataTable } from './data-table.js';
import { ExchangeProblemList } from './exchange-problems.js';
import { Layout } from './layout.js';
import { State, Time } from './parts.js';
import type { ViewContext } from './view-context.js';

/** What our reply acknowledges, in words. */
export function acknowledgement(t: Translate, exchange: ExchangeSummary): string {
  if (exchange.acknowledgedNo === null) return '—';
  if (exchange.acknowledgedNo === 0) return t('exchange.settingsOnly');
  return t('exchange.acknowledgedValue', { no: exchange.acknowledgedNo, ours: exchange.ourMessageNo });
}

export function ExchangePage(props: { ctx: ViewContext; data: ExchangeData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  const { exchange } = data;
  return (
    <Layout ctx={ctx} title={t('exchange.title', { flow: data.flow })}>
      <h1>{t('exchange.title', { flow: data.flow })}</h1>
      <div id="exchange" data-live="">
        {exchange.agreedVersion === null && !exchange.noCommonVersion ? <p class="warn">{t('exchange.notAgreed')}</p> : null}
        {exchange.replyDue ? <p class="warn">{t('exchange.replyDue')}</p> : null}
        {exchange.settingsAnswered ? <p class="ok-text">{t('exchange.settingsAnswered', { reply: exchange.replyName })}</p> : null}
        {exchange.namesDisagree ? (
          <p class="warn">{t(exchange.peerNameForm === 'transliterated' ? 'exchange.namesLatin' : 'exchange.namesPlain', { reply: exchange.replyName })}</p>
        ) : null}
        {data.versionProblem !== null || data.strayMessages.length > 0 ? (
          <section>
            <h2>{t('exchange.attention')}</h2>
            <ExchangeProblemList t={t} problems={data} />
          </section>
        ) : null}
        <dl class="facts">
          <dt>{t('exchange.peer')}</dt>
          <dd>
            <code>{exchange.peer}</code>
          </dd>
          <dt>{t('exchange.node')}</dt>
          <dd>
            <code>{exchange.node}</code>
          </dd>
          <dt>{t('exchange.peerFile')}</dt>
          <dd>
            <code>{exchange.peerMessageName}</code>
          </dd>
          <dt>{t('exchange.replyFile')}</dt>
          <dd>
            <code>{exchange.replyName}</code> <Time at={exchange.replyWrittenAt} />
          </dd>
          <dt>{t('exchange.agreed')}</dt>
          <dd>{exchange.agreedVersion ?? '—'}</dd>
          <dt>{t('exchange.ourVersions')}</dt>
          <dd>{data.ourVersions.join(', ')}</dd>
          <dt>{t('exchange.peerVersions')}</dt>
          <dd>{data.peerVersions?.join(', ') ?? '—'}</dd>
          <dt>{t('exchange.lastWrote')}</dt>
          <dd>{exchange.lastMessageAt ? <Time at={exchange.lastMessageAt} /> : t('exchange.never')}</dd>
          <dt>{t('exchange.lastTaken')}</dt>
          <dd>
            {exchange.lastTakenNo > 0 ? t('exchange.lastTakenValue', { no: exchange.lastTakenNo }) : t('exchange.noneTaken')} <Time at={exchange.lastTakenAt} />
          </dd>
          <dt>{t('exchange.acknowledged')}</dt>
          <dd>{acknowledgement(t, exchange)}</dd>
          <dt>{t('exchange.peerAccepted')}</dt>
          <dd>{exchange.peerAcceptedNo > 0 ? t('exchange.lastTakenValue', { no: exchange.peerAcceptedNo }) : '—'}</dd>
          <dt>{t('exchange.waiting')}</dt>
          <dd>
            <a href={paths.search(data.flow)}>{data.waiting}</a>
          </dd>
          <dt>{t('exchange.problems')}</dt>
          <dd>{data.problems}</dd>
        </dl>
        <section>
          <h2>{t('exchange.messages')}</h2>
          <DataTable
            t={t}
            rows={data.messages}
            columns={[
              { head: 'col.file', cell: (m) => <a href={paths.file(data.flow, m.fileId)}>{m.fileName}</a> },
              { head: 'col.messageNo', class: 'num', cell: (m) => (m.messageNo === null ? '—' : m.messageNo) },
              { head: 'col.kind', cell: (m) => t(`exchange.kind.${m.kind}`) },
              { head: 'col.version', cell: (m) => m.version ?? '—' },
              { head: 'col.receivedNo', class: 'num', cell: (m) => (m.receivedNo === null ? '—' : m.receivedNo) },
              { head: 'col.state', cell: (m) => <State t={t} state={m.fileState} of="file" /> },
              { head: 'col.requests', class: 'num', cell: (m) => m.requests },
              { head: 'col.problems', class: 'num', cell: (m) => m.problems },
              { head: 'col.time', cell: (m) => <Time at={m.at} /> },
            ]}
          />
        </section>
        {data.peerObjectTypes && data.peerObjectTypes.length > 0 ? (
          <section>
            <h2>{t('exchange.objectTypes')}</h2>
            <DataTable
              t={t}
              rows={data.peerObjectTypes}
              columns={[
                { head: 'col.name', cell: (type) => type.name },
                { head: 'col.sending', cell: (type) => type.sending || '—' },
                { head: 'col.receiving', cell: (type) => type.receiving || '—' },
              ]}
            />
          </section>
        ) : null}
      </div>
    </Layout>
  );
}
