/** `/events`, `/orders/<orderId>` and `/audit`. */
import type { AuditData, EventsData, OrderData } from '../data/events.js';
import type { EventItem } from '../data/shapes.js';
import type { Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { Layout } from './layout.js';
import { AuditTable, Json, SubmissionTable, Time } from './parts.js';
import type { ViewContext } from './view-context.js';

function EventTable(props: { t: Translate; rows: readonly (EventItem & { body?: unknown })[]; withBody?: boolean }) {
  const { t } = props;
  if (props.rows.length === 0) return <p class="muted">{t('common.none')}</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>{t('col.received')}</th>
          <th>{t('col.event')}</th>
          <th>{t('col.type')}</th>
          <th>{t('col.order')}</th>
          <th>{t('col.status')}</th>
          <th>{t('col.eventDate')}</th>
          <th>{t('col.applied')}</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((event) => (
          <tr>
            <td>
              <Time at={event.receivedAt} />
            </td>
            <td>
              {event.eventId}
              {props.withBody ? (
                <details>
                  <summary>{t('order.body')}</summary>
                  <Json value={event.body} />
                </details>
              ) : null}
            </td>
            <td>{event.eventType}</td>
            <td>{event.orderId ? <a href={paths.order(event.orderId)}>{event.orderId}</a> : '—'}</td>
            <td>{event.status ?? '—'}</td>
            <td>{event.eventDate}</td>
            <td>{event.applied ? '✓' : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function EventsPage(props: { ctx: ViewContext; data: EventsData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('events.title')}>
      <h1>{t('events.title')}</h1>
      <div id="events" data-live="">
        <EventTable t={t} rows={data.events} />
      </div>
      {data.nextBefore !== null ? <a href={paths.events(data.nextBefore)}>{t('common.older')}</a> : null}
    </Layout>
  );
}

export function OrderPage(props: { ctx: ViewContext; data: OrderData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('order.title', { id: data.orderId })}>
      <h1>{t('order.title', { id: data.orderId })}</h1>
      <div id="order" data-live="">
        <p>{data.status ? t('order.status', { status: data.status.status }) : t('order.noStatus')}</p>
        <EventTable t={t} rows={data.events} withBody />
      </div>
      {data.submissions.length > 0 ? (
        <section>
          <h2>{t('order.submissions')}</h2>
          <SubmissionTable t={t} flow={data.submissions[0]!.flow} rows={data.submissions} />
        </section>
      ) : null}
    </Layout>
  );
}

export function AuditPage(props: { ctx: ViewContext; data: AuditData }) {
  const { ctx, data } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('audit.title')}>
      <h1>{t('audit.title')}</h1>
      {data.entries.length === 0 ? <p class="muted">{t('common.none')}</p> : <AuditTable t={t} rows={data.entries} showTarget />}
    </Layout>
  );
}
