/**
 * The mapping page's routes. Every form carries the editor's YAML (`yaml`), the flow (`flow`), the
 * chosen sample (`sample`: an id the page listed) or a file (`upload`), the session's CSRF token
 * (`_csrf`, or the `X-CSRF-Token` header) and the version of the file the editor started from
 * (`version`):
 *
 *   GET  /mapping?flow=&sample=   the page: the file in the editor, the preview on the newest archived file
 *   POST /mapping/preview          the preview of the posted YAML on the sample; `?part=preview`
 *                                  answers only the `#preview` fragment (the page's script swaps it in)
 *   POST /mapping/suggest          `suggest` on the sample: its YAML in the editor, and its preview
 *   POST /mapping/save             check, back up, write, reload (as SIGHUP), audit
 *   GET  /mapping/schema.json?flow=   the JSON Schema of the flow kind's mappings, for the editor
 *
 * Looking and previewing need what every page needs (read access: loopback, or a session), a POST
 * from the console's own origin, and the session's CSRF token when there is a session. Saving
 * needs a session (the operator password) even on loopback, like every action.
 */
import type { Hono } from 'hono';
import type { FlowConfig } from '../../../config/flow-schema.js';
import { createSerialLane } from '../../../shared/serial-lane.js';
import { getAuditEntry } from '../../../store/audit.js';
import { auditItem } from '../data/shapes.js';
import { paths } from '../paths.js';
import { html, page, refused, signInFirst } from '../respond.js';
import { checkAccess, clientAddress, logRefusal, viewContext, wantsJson, type ConsoleEnv, type RequestContext, type Runtime } from '../runtime.js';
import { MappingPage, PreviewSection } from '../views/mapping.js';
import { auditSave } from './audit-save.js';
import { normalizeEditorText } from './check-mapping.js';
import { chooseSample } from './choose-sample.js';
import { suggestFromSample } from './suggest-from-sample.js';
import { readMappingText } from './mapping-file.js';
import { mappingJsonSchema } from './mapping-json-schema.js';
import { previewMapping, sampleInfo } from './preview.js';
import { saveAndReload } from './save-and-reload.js';
import { listArchiveSamples } from './samples.js';
import { studioData, type StudioParts } from './studio-data.js';
import { uploadFormatsOf } from './upload-formats.js';
import { formText, readFlowQuery, readStudioEditorForm, readStudioForm, studioFormLimit } from './studio-form.js';
import { createUploadStore } from './uploads.js';
import { renderHtml } from '../render-html.js';

export { SAVE_MAPPING_ACTION } from './audit-save.js';

export function addMappingStudio(app: Hono<ConsoleEnv>, rt: Runtime): void {
  const { deps, t } = rt;
  const uploads = createUploadStore({ clock: deps.clock });
  // One save at a time: two operators saving at once must not interleave backup, write and reload.
  const saving = createSerialLane();
  const now = () => new Date(deps.clock());
  const flowOf = (name: string | undefined): FlowConfig | undefined => deps.flows.find((flow) => flow.name === (name ?? deps.flows[0]?.name));
  const limit = studioFormLimit(rt);

  const choose = (flow: FlowConfig, id: string, upload: File | null) => chooseSample(uploads, flow, id, upload);

  const renderPage = async (c: RequestContext, flow: FlowConfig, parts: StudioParts, status: 200 | 401 | 409 | 422 = 200) => {
    const data = await studioData(deps, flow, parts);
    return html(c, <MappingPage ctx={viewContext(rt, c)} data={data} upload={uploadFormatsOf(flow, data.text)} />, status);
  };

  const readEditorForm = (c: RequestContext) => readStudioEditorForm(rt, c, flowOf, choose);

  app.get('/mapping', async (c) => {
    const flow = await readFlowQuery(rt, c, flowOf);
    if (flow instanceof Response) return flow;
    const asked = c.req.query('sample') ?? (await listArchiveSamples(flow.inbox, 1))[0]?.id ?? '';
    const { sample, error } = await choose(flow, asked, null);
    const file = await readMappingText(flow);
    const preview = await previewMapping(file.text, flow, sample, error, now());
    return page(c, await studioData(deps, flow, { preview }), (data) => (
      <MappingPage ctx={viewContext(rt, c)} data={data} upload={uploadFormatsOf(flow, data.text)} />
    ));
  });

  app.get('/mapping/schema.json', async (c) => {
    const flow = await readFlowQuery(rt, c, flowOf);
    if (flow instanceof Response) return flow;
    const schema = mappingJsonSchema(flow.kind);
    c.header('etag', schema.etag);
    c.header('cache-control', 'no-cache');
    if (c.req.header('if-none-match') === schema.etag) return c.body(null, 304);
    return c.body(schema.body, 200, { 'content-type': 'application/json; charset=utf-8' });
  });

  app.post('/mapping/preview', limit, async (c) => {
    const got = await readEditorForm(c);
    if (got instanceof Response) return got;
    const { flow, yaml, version, sample, error } = got;
    const preview = await previewMapping(yaml, flow, sample, error, now());
    if (c.req.query('part') === 'preview') return c.html(await renderHtml(<PreviewSection t={t} data={preview} />));
    if (wantsJson(c)) return c.json(preview);
    return renderPage(c, flow, { text: yaml, version, preview });
  });

  app.post('/mapping/suggest', limit, async (c) => {
    const got = await readEditorForm(c);
    if (got instanceof Response) return got;
    const { flow, yaml, version, sample, error } = got;
    const answer = await suggestFromSample(flow, sample, error, t, now);
    if (!answer.ok) {
      if (wantsJson(c)) return c.json({ error: answer.failure }, 422);
      return renderPage(c, flow, { text: yaml, version, preview: await previewMapping(yaml, flow, null, answer.failure, now()) }, 422);
    }
    const { suggestion: suggested, summary, preview } = answer;
    if (wantsJson(c))
      return c.json({ flow: flow.name, sample: sampleInfo(answer.sample), yaml: suggested.yaml, complete: suggested.complete, summary, preview });
    return renderPage(c, flow, { text: suggested.yaml, version, preview, suggestion: { summary, complete: suggested.complete } });
  });

  app.post('/mapping/save', limit, async (c) => {
    if (!rt.passwordSet) return refused(rt, c, 403, t('error.actionsOff'));
    const verdict = checkAccess(rt, c, 'act');
    if (!verdict.ok && wantsJson(c)) return signInFirst(rt, c, verdict);
    const got = await readStudioForm(rt, c, flowOf);
    if (got instanceof Response) return got;
    const { form, flow } = got;
    const yaml = normalizeEditorText(formText(form, 'yaml'));
    const version = formText(form, 'version') || null;
    const again = async (saveError: { code: string; message: string }, status: 401 | 409 | 422, keepVersion: boolean) => {
      const { sample, error } = await choose(flow, formText(form, 'sample'), null);
      const preview = await previewMapping(yaml, flow, sample, error, now());
      return renderPage(c, flow, { text: yaml, ...(keepVersion ? { version } : {}), preview, saveError }, status);
    };
    if (!verdict.ok) {
      // The session expired while the operator was editing: keep the text on the page, do not send it to the sign-in page.
      logRefusal(rt, c, verdict.reason);
      return again({ code: 'CONSOLE_REQUEST_REFUSED', message: t('mapping.signInAgain') }, 401, true);
    }
    const session = c.get('session')!;
    const at = deps.clock();
    const outcome = await saving.run(() => saveAndReload(flow, yaml, version, at, deps.operator));
    const id = await auditSave(deps.db, rt.durable, rt.log, { at, actor: session.actor, address: clientAddress(c), flow, outcome });
    if (wantsJson(c)) {
      const { saved, file: written, backup, reload, error } = outcome;
      return c.json({ saved, file: written, backup, reload, error, audit: auditItem(getAuditEntry(deps.db, id)!) }, outcome.status);
    }
    if (outcome.status === 200) return c.redirect(`${paths.mapping(flow.name)}&done=${id}`, 303);
    return again({ code: outcome.error!.code, message: outcome.error!.message }, outcome.status, !outcome.saved);
  });
}
