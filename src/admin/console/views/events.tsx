/** `/events`, `/orders/<orderId>` and `/audit`. */
import type { AuditData, EventsData, OrderData } from '../data/events.js';
import type { EventItem } from '../data/shapes.js';
import type { Translate } from '../i18n.js';
import { paths } from '../paths.js';
import { DataTable } from './data-table.js';
import { Layout } from './layout.js';
import { AuditTable, Json, OrderStatus, SubmissionTable, Time } from './parts.js';
import type { ViewContext } from './view-context.js';

function EventTable(props: { t: Translate; rows: readonly (EventItem & { body?: unknown })[]; withBody?: boolean }) {
  const { t } = props;
  return (
    <DataTable
      t={t}
      rows={props.rows}
      columns={[
        { head: 'col.received', cell: (event) => <Time at={event.receivedAt} /> },
        {
          head: 'col.event',
          cell: (event) => (
            <>
              {event.eventId}
              {props.withBody ? (
                <details>
                  <summary>{t('order.body')}</summary>
                  <Json value={event.body} />
                </details>
              ) : null}
            </>
          ),
        },
        { head: 'col.type', cell: (event) => event.eventType },
        { head: 'col.order', cell: (event) => (event.orderId ? <a href={paths.order(event.orderId)}>{event.orderId}</a> : '—') },
        { head: 'col.status', cell: (event) => <OrderStatus t={t} status={event.status} /> },
        { head: 'col.eventDate', cell: (event) => <Time at={event.eventDate} /> },
        { head: 'col.applied', cell: (event) => (event.applied ? '✓' : '') },
      ]}
    />
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
        <p>
          {data.status ? (
            <>
              {t('order.statusLabel')} <OrderStatus t={t} status={data.status.status} />
            </>
          ) : (
            t('order.noStatus')
          )}
        </p>
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
