/** `/`: one card per flow, the webhook listener, the exporter, readiness; refreshed live by console.js. */
import { EVENT_OUTCOMES, REQUEST_OUTCOMES, type EventOutcome, type HourlyHistory, type RequestOutcome } from '../data/history.js';
import type { ExchangeSummary } from '../data/exchange.js';
import type { FlowOverview, OverviewData } from '../data/overview.js';
import { formatDuration, formatTime } from '../format.js';
import { translateOr, type Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { HourlyChart, type SeriesLook } from './chart.js';
import { DataTable } from './data-table.js';
import { acknowledgement } from './exchange.js';
import { Layout } from './layout.js';
import { channelWord, ErrorCell, OrderStatus, State, stateWord, Time, submissionErrorWords } from './parts.js';
import type { ViewContext } from './view-context.js';

const SUBMISSION_STATES = ['pending', 'in_flight', 'accepted', 'rejected', 'held', 'dead'] as const;

/** Besides its colour, each series has its own look: the two solid ones are far apart in lightness (green, near black). */
const LOOKS: Record<RequestOutcome | EventOutcome, SeriesLook> = {
  accepted: 'plain',
  retry: 'hatch',
  held: 'dots',
  rejected: 'cross',
  dead: 'plain',
  applied: 'plain',
  storedOnly: 'hatch',
};

function seriesOf<K extends RequestOutcome | EventOutcome>(t: Translate, keys: readonly K[], history: HourlyHistory<K>) {
  return keys.map((key) => ({ key, label: t(`chart.${key}`), look: LOOKS[key], counts: history.series[key] }));
}

export function OverviewPage(props: { ctx: ViewContext; data: OverviewData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('overview.title')}>
      <div id="overview" data-live="">
        <p class="updated muted">{t('common.updated', { time: formatTime(data.generatedAt) })}</p>
        <Readiness t={t} readiness={data.readiness} />
        <div class="cards">
          {data.flows.map((flow, index) => (
            <FlowCard ctx={ctx} flow={flow} index={index} />
          ))}
          <WebhookCard t={t} webhook={data.webhook} />
          <ExporterCard ctx={ctx} exporter={data.exporter} />
        </div>
      </div>
    </Layout>
  );
}

function Readiness(props: { t: Translate; readiness: OverviewData['readiness'] }) {
  const { t, readiness } = props;
  return (
    <section class={`readiness ${readiness.ready ? 'ok' : 'bad'}`}>
      <b>{readiness.ready ? t('overview.ready') : t('overview.notReady')}</b>
      {readiness.reasons.length > 0 ? (
        <ul>
          {readiness.reasons.map((reason) => (
            <li>{reason}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** A flow: its submissions by state, today's files, the oldest pending, its gate, its exchange with 1C, its last error, its last 24 hours. */
function FlowCard(props: { ctx: ViewContext; flow: FlowOverview; index: number }) {
  const { ctx, flow, index } = props;
  const { t } = ctx;
  return (
    <section class="card flow">
      <h2>
        <a href={paths.search(flow.name)}>{flow.name}</a> <span class="muted">{translateOr(t, `kind.${flow.kind}`, flow.kind)}</span>
      </h2>
      <FlowCounts t={t} flow={flow} />
      <dl>
        <dt>{t('overview.filesToday')}</dt>
        <FilesToday t={t} flow={flow} />
        <dt>{t('overview.oldestPending')}</dt>
        <dd>{formatDuration(flow.oldestPendingAgeMs, ctx.language)}</dd>
        <dt>{t('overview.delivery')}</dt>
        <dd>
          <span class={`gate g-${flow.gate?.mode ?? 'closed'}`}>{translateOr(t, `gate.${flow.gate?.mode ?? 'closed'}`, '')}</span>
        </dd>
        {flow.exchange ? <FlowExchange t={t} flow={flow.name} exchange={flow.exchange} /> : null}
        <dt>{t('overview.lastError')}</dt>
        <LastError t={t} flow={flow} />
      </dl>
      <HourlyChart
        t={t}
        id={`chart-flow-${index}`}
        title={t(flow.kind === 'confirmations' ? 'chart.confirmations' : 'chart.requests')}
        empty={t(flow.kind === 'confirmations' ? 'chart.noConfirmations' : 'chart.noRequests')}
        hours={flow.lastDay.hours}
        until={flow.lastDay.until}
        series={seriesOf(t, REQUEST_OUTCOMES, flow.lastDay)}
      />
    </section>
  );
}

function FlowCounts(props: { t: Translate; flow: FlowOverview }) {
  const { t, flow } = props;
  return (
    <table class="counts">
      <tbody>
        {SUBMISSION_STATES.map((state) => (
          <tr>
            <td>
              <State t={t} state={state} of={flow.kind === 'confirmations' ? 'confirmation' : 'request'} />
            </td>
            <td class="num">{flow.counts[state] ?? 0}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function FilesToday(props: { t: Translate; flow: FlowOverview }) {
  const { t, flow } = props;
  return (
    <dd>
      {Object.keys(flow.filesToday).length === 0
        ? '0'
        : Object.entries(flow.filesToday).map(([state, n]) => (
            <a class="count" href={paths.files(flow.name, state)}>
              {`${translateOr(t, `state.files.${state}`, stateWord(t, state, 'file'))}: ${n}`}
            </a>
          ))}
    </dd>
  );
}

/** The flow's exchange with 1C: not agreed yet, or the last message taken, acknowledged and written. */
function FlowExchange(props: { t: Translate; flow: string; exchange: ExchangeSummary }) {
  const { t, flow, exchange } = props;
  return (
    <>
      <dt>
        <a href={paths.exchange(flow)}>{t('exchange.link')}</a>
      </dt>
      <dd>
        {exchange.noCommonVersion ? (
          <span class="warn">{t('exchange.noVersionTitle')}</span>
        ) : exchange.agreedVersion === null ? (
          <span class="warn">{t('exchange.notAgreed')}</span>
        ) : (
          <span>
            {`${t('exchange.lastTaken')}: ${exchange.lastTakenNo > 0 ? t('exchange.lastTakenValue', { no: exchange.lastTakenNo }) : t('exchange.noneTaken')}; ${t('exchange.acknowledged')}: ${acknowledgement(t, exchange)}; ${t('exchange.lastWrote')}: `}
            {exchange.lastMessageAt ? <Time at={exchange.lastMessageAt} /> : t('exchange.never')}
          </span>
        )}
      </dd>
    </>
  );
}

function LastError(props: { t: Translate; flow: FlowOverview }) {
  const { t, flow } = props;
  return (
    <dd>
      {flow.lastError ? (
        <span>
          <a href={paths.request(flow.name, flow.lastError.externalId)}>{flow.lastError.externalId}</a>{' '}
          <ErrorCell
            t={t}
            code={flow.lastError.code}
            words={submissionErrorWords(t, { errorCode: flow.lastError.code, lastStatus: flow.lastError.status, ...flow.lastError })}
          />{' '}
          <Time at={flow.lastError.at} />
        </span>
      ) : (
        '—'
      )}
    </dd>
  );
}

/** The webhook listener: today's events, the last one, refusals since the start, its last 24 hours; or that there is none. */
function WebhookCard(props: { t: Translate; webhook: OverviewData['webhook'] }) {
  const { t, webhook } = props;
  return (
    <section class="card">
      <h2>
        <a href={paths.events()}>{t('overview.webhook')}</a>
      </h2>
      {webhook ? (
        <dl>
          <dt>{t('overview.eventsToday')}</dt>
          <dd>{webhook.eventsToday}</dd>
          <dt>{t('overview.lastEvent')}</dt>
          <dd>
            {webhook.lastEvent ? (
              <span>
                {webhook.lastEvent.eventId}{' '}
                {webhook.lastEvent.orderId ? <a href={paths.order(webhook.lastEvent.orderId)}>{webhook.lastEvent.orderId}</a> : null}{' '}
                {webhook.lastEvent.status ? <OrderStatus t={t} status={webhook.lastEvent.status} /> : null} <Time at={webhook.lastEvent.receivedAt} />
              </span>
            ) : (
              '—'
            )}
          </dd>
          <dt>{t('overview.refused')}</dt>
          <dd>
            {Object.keys(webhook.refusedSinceStart).length === 0
              ? '0'
              : Object.entries(webhook.refusedSinceStart).map(([code, n]) => (
                  <span class="count">
                    <code>{code}</code>: {n}
                  </span>
                ))}
          </dd>
        </dl>
      ) : (
        <p class="muted">{t('overview.noWebhook')}</p>
      )}
      {webhook ? (
        <HourlyChart
          t={t}
          id="chart-webhook"
          title={t('chart.events')}
          empty={t('chart.noEvents')}
          hours={webhook.lastDay.hours}
          until={webhook.lastDay.until}
          series={seriesOf(t, EVENT_OUTCOMES, webhook.lastDay)}
        />
      ) : null}
    </section>
  );
}

/** The exporter: each channel's pending records and last file, and the records set aside. */
function ExporterCard(props: { ctx: ViewContext; exporter: OverviewData['exporter'] }) {
  const { ctx, exporter } = props;
  const { t } = ctx;
  return (
    <section class="card">
      <h2>{t('overview.exporter')}</h2>
      <DataTable
        t={t}
        rows={exporter.channels}
        columns={[
          { head: 'overview.channel', cell: (channel) => channelWord(t, channel.channel) },
          {
            head: 'overview.pending',
            class: 'num',
            cell: (channel) => (
              <>
                {channel.pending}
                {channel.oldestPendingAgeMs !== null ? <span class="muted"> ({formatDuration(channel.oldestPendingAgeMs, ctx.language)})</span> : null}
              </>
            ),
          },
          {
            head: 'overview.lastFile',
            cell: (channel) =>
              channel.lastFile ? (
                <span>
                  {channel.lastFile.fileName ?? ''} <Time at={channel.lastFile.writtenAt} />
                </span>
              ) : (
                '—'
              ),
          },
        ]}
      />
      {exporter.setAside > 0 ? (
        <p class="warn">
          <a href={paths.attention()}>{t('overview.setAside', { n: exporter.setAside })}</a>
        </p>
      ) : null}
    </section>
  );
}
