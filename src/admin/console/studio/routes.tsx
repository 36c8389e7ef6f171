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
import { bodyLimit } from 'hono/body-limit';
import type { FlowConfig } from '../../../config/flow-schema.js';
import { ConnectorError, isConnectorError } from '../../../errors.js';
import { scrubDeep } from '../../../log.js';
import { formatSuggestionSummary, previewSuggestion, suggestMappingForFile, type MappingSuggestion } from '../../../mapping/index.js';
import { AUDIT_RESULT, getAuditEntry, recordAudit } from '../../../store/audit.js';
import { isSameOrigin } from '../access.js';
import { auditItem } from '../data/shapes.js';
import { paths } from '../paths.js';
import { html, notFound, page, refused, signInFirst } from '../respond.js';
import { checkAccess, clientAddress, logRefusal, viewContext, wantsJson, type ConsoleEnv, type RequestContext, type Runtime } from '../runtime.js';
import { tokensMatch } from '../sessions.js';
import { MappingPage, PreviewSection } from '../views/mapping.js';
import { normalizeEditorText } from './check-mapping.js';
import { MAX_SAMPLE_BYTES, MAX_STUDIO_FORM_BYTES } from './limits.js';
import { readMappingText } from './mapping-file.js';
import { mappingJsonSchema } from './mapping-json-schema.js';
import { previewMapping, sampleInfo, type PreviewData } from './preview.js';
import { saveAndReload } from './save-and-reload.js';
import { withSampleFile } from './sample-file.js';
import { listArchiveSamples, readArchiveSample, tooLarge, type Sample } from './samples.js';
import { studioData, type StudioParts } from './studio-data.js';
import { uploadFormatsOf } from './upload-formats.js';
import { createUploadStore, isUploadId } from './uploads.js';

export const SAVE_MAPPING_ACTION = 'save-mapping';

type Form = Record<string, string | File>;
type SampleChoice = { sample: Sample | null; error: PreviewData['sampleError'] };

export function addMappingStudio(app: Hono<ConsoleEnv>, rt: Runtime): void {
  const { deps, t } = rt;
  const uploads = createUploadStore({ clock: deps.clock });
  // One save at a time: two operators saving at once must not interleave backup, write and reload.
  let saving: Promise<unknown> = Promise.resolve();
  const now = () => new Date(deps.clock());
  const flowOf = (name: string | undefined): FlowConfig | undefined => deps.flows.find((flow) => flow.name === (name ?? deps.flows[0]?.name));
  const limit = bodyLimit({
    maxSize: MAX_STUDIO_FORM_BYTES,
    onError: (c) => refused(rt, c as RequestContext, 413, `the form is larger than ${MAX_STUDIO_FORM_BYTES} bytes (YAML up to 1 MiB, a sample up to 4 MiB)`),
  });

  const choose = async (flow: FlowConfig, id: string, upload: File | null): Promise<SampleChoice> => {
    try {
      if (upload !== null && upload.size > 0) {
        if (upload.size > MAX_SAMPLE_BYTES) throw tooLarge(upload.name, upload.size);
        return { sample: uploads.put(upload.name, Buffer.from(await upload.arrayBuffer())), error: null };
      }
      if (isUploadId(id)) {
        const sample = uploads.get(id);
        if (!sample) throw new ConnectorError('FILE_UNREADABLE', 'the uploaded sample is no longer kept (uploads are kept for 30 minutes): upload it again');
        return { sample, error: null };
      }
      if (id !== '') return { sample: await readArchiveSample(flow.inbox, id), error: null };
      return { sample: null, error: null };
    } catch (error) {
      if (!isConnectorError(error)) throw error;
      return { sample: null, error: { code: error.code, message: error.message } };
    }
  };

  const renderPage = async (c: RequestContext, flow: FlowConfig, parts: StudioParts, status: 200 | 401 | 409 | 422 = 200) => {
    const data = scrubDeep(await studioData(deps, flow, parts));
    return html(c, <MappingPage ctx={viewContext(rt, c)} data={data} upload={uploadFormatsOf(flow, data.text)} />, status);
  };

  /** Same origin, a form body, the session's CSRF token when there is a session, a known flow. */
  const readForm = async (c: RequestContext): Promise<{ form: Form; flow: FlowConfig } | Response> => {
    if (!isSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'))) return refused(rt, c, 403, 'foreign origin');
    const type = c.req.header('content-type') ?? '';
    const form: Form = type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data') ? await c.req.parseBody() : {};
    const session = c.get('session');
    if (session && !tokensMatch(text(form, '_csrf') || c.req.header('x-csrf-token'), session.csrfToken)) return refused(rt, c, 403, t('error.csrf'));
    const flow = flowOf(text(form, 'flow'));
    if (!flow) return notFound(rt, c, t('error.noFlow', { flow: text(form, 'flow') }));
    return { form, flow };
  };

  /** What the preview and suggest buttons send: may read, the form as above, the editor's text, the sample chosen. */
  const readEditorForm = async (c: RequestContext) => {
    const verdict = checkAccess(rt, c, 'read');
    if (!verdict.allowed) return signInFirst(rt, c, verdict);
    const got = await readForm(c);
    if (got instanceof Response) return got;
    const { form, flow } = got;
    const chosen = await choose(flow, text(form, 'sample'), file(form, 'upload'));
    return { flow, yaml: normalizeEditorText(text(form, 'yaml')), version: text(form, 'version') || null, ...chosen };
  };

  app.get('/mapping', async (c) => {
    const verdict = checkAccess(rt, c, 'read');
    if (!verdict.allowed) return signInFirst(rt, c, verdict);
    const flow = flowOf(c.req.query('flow'));
    if (!flow) return notFound(rt, c, t('error.noFlow', { flow: c.req.query('flow') }));
    const asked = c.req.query('sample') ?? (await listArchiveSamples(flow.inbox, 1))[0]?.id ?? '';
    const { sample, error } = await choose(flow, asked, null);
    const file = await readMappingText(flow);
    const preview = await previewMapping(file.text, flow, sample, error, now());
    return page(c, await studioData(deps, flow, { preview }), (data) => (
      <MappingPage ctx={viewContext(rt, c)} data={data} upload={uploadFormatsOf(flow, data.text)} />
    ));
  });

  app.get('/mapping/schema.json', async (c) => {
    const verdict = checkAccess(rt, c, 'read');
    if (!verdict.allowed) return signInFirst(rt, c, verdict);
    const flow = flowOf(c.req.query('flow'));
    if (!flow) return notFound(rt, c, t('error.noFlow', { flow: c.req.query('flow') }));
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
    const preview = scrubDeep(await previewMapping(yaml, flow, sample, error, now()));
    if (c.req.query('part') === 'preview') return c.html(String(await (<PreviewSection t={t} data={preview} />)));
    if (wantsJson(c)) return c.json(preview);
    return renderPage(c, flow, { text: yaml, version, preview });
  });

  app.post('/mapping/suggest', limit, async (c) => {
    const got = await readEditorForm(c);
    if (got instanceof Response) return got;
    const { flow, yaml, version, sample, error } = got;
    let failure = error ?? (sample ? null : { code: 'FILE_UNREADABLE', message: t('mapping.suggestNeedsSample') });
    let suggestion: MappingSuggestion | null = null;
    if (sample && !failure) {
      try {
        suggestion = await withSampleFile(sample, (input) => suggestMappingForFile(input, { kind: flow.kind, now: now() }));
      } catch (caught) {
        if (!isConnectorError(caught)) throw caught;
        failure = { code: caught.code, message: caught.message };
      }
    }
    if (!sample || !suggestion) {
      if (wantsJson(c)) return c.json({ error: failure }, 422);
      return renderPage(c, flow, { text: yaml, version, preview: await previewMapping(yaml, flow, null, failure, now()) }, 422);
    }
    const suggested = suggestion;
    const tried = await withSampleFile(sample, (input) => previewSuggestion(suggested, input, { now: now() }));
    const summary = formatSuggestionSummary(suggested, tried, 'in the editor');
    const preview = scrubDeep(await previewMapping(suggested.yaml, flow, sample, null, now()));
    if (wantsJson(c))
      return c.json(scrubDeep({ flow: flow.name, sample: sampleInfo(sample), yaml: suggested.yaml, complete: suggested.complete, summary, preview }));
    return renderPage(c, flow, { text: suggested.yaml, version, preview, suggestion: { summary, complete: suggested.complete } });
  });

  app.post('/mapping/save', limit, async (c) => {
    if (!rt.passwordSet) return refused(rt, c, 403, t('error.actionsOff'));
    const verdict = checkAccess(rt, c, 'act');
    if (!verdict.allowed && wantsJson(c)) return signInFirst(rt, c, verdict);
    const got = await readForm(c);
    if (got instanceof Response) return got;
    const { form, flow } = got;
    const yaml = normalizeEditorText(text(form, 'yaml'));
    const version = text(form, 'version') || null;
    const again = async (saveError: { code: string; message: string }, status: 401 | 409 | 422, keepVersion: boolean) => {
      const { sample, error } = await choose(flow, text(form, 'sample'), null);
      const preview = await previewMapping(yaml, flow, sample, error, now());
      return renderPage(c, flow, { text: yaml, ...(keepVersion ? { version } : {}), preview, saveError }, status);
    };
    if (!verdict.allowed) {
      // The session expired while the operator was editing: keep the text on the page, do not send it to the sign-in page.
      logRefusal(rt, c, verdict.reason);
      return again({ code: 'CONSOLE_REQUEST_REFUSED', message: t('mapping.signInAgain') }, 401, true);
    }
    const session = c.get('session')!;
    const at = deps.clock();
    const run = saving.then(() => saveAndReload(flow, yaml, version, at, deps.operator));
    saving = run.catch(() => undefined);
    const outcome = await run;

    const entry = {
      at,
      actor: session.actor,
      address: clientAddress(c),
      action: SAVE_MAPPING_ACTION,
      flow: flow.name,
      target: flow.mapping,
      result: outcome.result,
      detail: outcome.detail,
      detail_text: JSON.stringify(outcome.text),
    };
    const id = recordAudit(deps.db, entry);
    await rt.durable();
    const fields = {
      audit: id,
      actor: entry.actor,
      address: entry.address,
      action: entry.action,
      flow: flow.name,
      target: flow.mapping,
      result: entry.result,
      detail: entry.detail,
    };
    if (outcome.result === AUDIT_RESULT.failed) rt.log.warn({ ...fields, code: outcome.error?.code ?? 'CONSOLE_ACTION_FAILED' }, 'console action failed');
    else rt.log.info(fields, 'console action');

    if (wantsJson(c)) {
      const { saved, file: written, backup, reload, error } = outcome;
      return c.json({ saved, file: written, backup, reload, error, audit: auditItem(getAuditEntry(deps.db, id)!) }, outcome.status);
    }
    if (outcome.status === 200) return c.redirect(`${paths.mapping(flow.name)}&done=${id}`, 303);
    return again({ code: outcome.error!.code, message: outcome.error!.message }, outcome.status, !outcome.saved);
  });
}

function text(form: Form, key: string): string {
  const value = form[key];
  return typeof value === 'string' ? value : '';
}

function file(form: Form, key: string): File | null {
  const value = form[key];
  return typeof value === 'object' && value !== null ? value : null;
}
