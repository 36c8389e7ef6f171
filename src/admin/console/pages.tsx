/** The read-only pages (GET). Each answers HTML, or its data as JSON for `Accept: application/json`. */
import type { Hono } from 'hono';
import { renderCsvReport, renderJsonReport } from '../../shared/file-report.js';
import { fileDetail } from '../../store/console-files.js';
import { readFileReport } from '../../store/files.js';
import { allFilesData, allRequestsData } from './data/all-lists.js';
import { attentionData } from './data/attention.js';
import { exchangeData } from './data/exchange.js';
import { auditData, eventsData, orderData } from './data/events.js';
import { fileData, filesData } from './data/files.js';
import { overviewData } from './data/overview.js';
import { requestData, searchData } from './data/requests.js';
import { paths } from './paths.js';
import { notFound, page, signInFirst } from './respond.js';
import { checkAccess, viewContext, type ConsoleEnv, type RequestContext, type Runtime } from './runtime.js';
import { AttentionPage } from './views/attention.js';
import { AuditPage, EventsPage, OrderPage } from './views/events.js';
import { ExchangePage } from './views/exchange.js';
import { FilePage, FilesPage } from './views/files.js';
import { AllFilesPage, AllRequestsPage } from './views/lists.js';
import { OverviewPage } from './views/overview.js';
import { RequestPage, SearchPage } from './views/requests.js';

type Guard = (c: RequestContext, flow?: string) => Promise<Response | null>;

export function addPages(app: Hono<ConsoleEnv>, rt: Runtime): void {
  /** Read access first; then the flow named in the path must exist. */
  const guard: Guard = async (c, flow) => {
    const verdict = checkAccess(rt, c, 'read');
    if (!verdict.ok) return signInFirst(rt, c, verdict);
    if (flow !== undefined && !rt.flowNames.includes(flow)) return notFound(rt, c, rt.t('error.noFlow', { flow }));
    return null;
  };
  addOverallPages(app, rt, guard);
  addFlowPages(app, rt, guard);
  addReportDownloads(app, rt, guard);
}

/** The pages across flows: the overview, attention, events, audit, orders, and the lists of all requests and files. */
function addOverallPages(app: Hono<ConsoleEnv>, rt: Runtime, guard: Guard): void {
  const { deps, t } = rt;
  app.get('/', async (c) => (await guard(c)) ?? page(c, await overviewData(deps), (data) => <OverviewPage ctx={viewContext(rt, c)} data={data} />));

  app.get('/attention', async (c) => (await guard(c)) ?? page(c, attentionData(deps), (data) => <AttentionPage ctx={viewContext(rt, c)} data={data} />));

  app.get(
    '/events',
    async (c) => (await guard(c)) ?? page(c, eventsData(deps, c.req.query('before')), (data) => <EventsPage ctx={viewContext(rt, c)} data={data} />),
  );

  app.get('/audit', async (c) => (await guard(c)) ?? page(c, auditData(deps), (data) => <AuditPage ctx={viewContext(rt, c)} data={data} />));

  app.get(
    '/requests',
    async (c) => (await guard(c)) ?? page(c, allRequestsData(deps, c.req.query('q') ?? ''), (data) => <AllRequestsPage ctx={viewContext(rt, c)} data={data} />),
  );

  app.get(
    '/files',
    async (c) =>
      (await guard(c)) ??
      page(c, allFilesData(deps, c.req.query('state'), c.req.query('before')), (data) => <AllFilesPage ctx={viewContext(rt, c)} data={data} />),
  );

  app.get('/orders/:orderId', async (c) => {
    const refusal = await guard(c);
    if (refusal) return refusal;
    const orderId = c.req.param('orderId');
    const data = orderData(deps, orderId);
    if (!data) return notFound(rt, c, t('order.notFound', { id: orderId }));
    return page(c, data, (d) => <OrderPage ctx={viewContext(rt, c)} data={d} />);
  });
}

/** The pages of one flow: its requests, a request, its exchange with 1C, its files, a file. */
function addFlowPages(app: Hono<ConsoleEnv>, rt: Runtime, guard: Guard): void {
  const { deps, t } = rt;
  app.get('/flows/:flow/requests', async (c) => {
    const flow = c.req.param('flow');
    return (await guard(c, flow)) ?? page(c, searchData(deps, flow, c.req.query('q') ?? ''), (data) => <SearchPage ctx={viewContext(rt, c)} data={data} />);
  });

  app.get('/flows/:flow/requests/:externalId', async (c) => {
    const { flow, externalId } = c.req.param();
    const refusal = await guard(c, flow);
    if (refusal) return refusal;
    const data = requestData(deps, flow, externalId);
    if (!data) return notFound(rt, c, t('request.notFound', { flow, id: externalId }));
    return page(c, data, (d) => <RequestPage ctx={viewContext(rt, c)} data={d} />);
  });

  app.get('/flows/:flow/exchange', async (c) => {
    const flow = c.req.param('flow');
    const refusal = await guard(c, flow);
    if (refusal) return refusal;
    const data = exchangeData(deps, flow);
    if (!data) return notFound(rt, c, t('error.noExchange', { flow }));
    return page(c, data, (d) => <ExchangePage ctx={viewContext(rt, c)} data={d} />);
  });

  app.get('/flows/:flow/files', async (c) => {
    const flow = c.req.param('flow');
    return (
      (await guard(c, flow)) ??
      page(c, filesData(deps, flow, c.req.query('state'), c.req.query('before')), (data) => <FilesPage ctx={viewContext(rt, c)} data={data} />)
    );
  });

  app.get('/flows/:flow/files/:fileId{[0-9]+}', async (c) => {
    const { flow, fileId } = c.req.param();
    const refusal = await guard(c, flow);
    if (refusal) return refusal;
    const data = fileData(deps, flow, Number(fileId), paths.file(flow, Number(fileId)));
    if (!data) return notFound(rt, c, t('file.notFound', { flow, id: fileId }));
    return page(c, data, (d) => <FilePage ctx={viewContext(rt, c)} data={d} />);
  });
}

/** A file's report as a download. */
function addReportDownloads(app: Hono<ConsoleEnv>, rt: Runtime, guard: Guard): void {
  const { deps, t } = rt;
  // The report, rendered from the store by the same functions the intake writes it with (never read from rejected/, which others write).
  app.get('/flows/:flow/files/:fileId{[0-9]+}/:report{errors\\.(?:json|csv)}', async (c) => {
    const { flow, fileId, report } = c.req.param();
    const refusal = await guard(c, flow);
    if (refusal) return refusal;
    const row = fileDetail(deps.db, Number(fileId));
    const content = row && row.flow === flow ? readFileReport(row) : null;
    if (!row || !content) return notFound(rt, c, t('file.notFound', { flow, id: fileId }));
    const csv = report.endsWith('.csv');
    const name = `${row.id}-report${csv ? '.errors.csv' : '.errors.json'}`;
    c.header(
      'content-disposition',
      `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(`${row.originalName}${csv ? '.errors.csv' : '.errors.json'}`)}`,
    );
    return csv
      ? c.body(renderCsvReport(content), 200, { 'content-type': 'text/csv; charset=utf-8' })
      : c.body(renderJsonReport(content), 200, { 'content-type': 'application/json; charset=utf-8' });
  });
}
