/**
 * Reading a studio form: what every POST of the mapping page must pass before it is looked at
 * (the console's own origin, a form body, the session's CSRF token when there is a session, a
 * known flow), and the fields it carries.
 */
import { bodyLimit } from 'hono/body-limit';
import type { FlowConfig } from '../../../config/flow-schema.js';
import { isSameOrigin } from '../access.js';
import { notFound, refused, signInFirst } from '../respond.js';
import { checkAccess, type RequestContext, type Runtime } from '../runtime.js';
import { tokensMatch } from '../sessions.js';
import { normalizeEditorText } from './check-mapping.js';
import type { SampleChoice } from './choose-sample.js';
import { MAX_STUDIO_FORM_BYTES } from './limits.js';

export type Form = Record<string, string | File>;

/** The form and its flow, or the refusal to answer with. `flowOf` finds a flow by name (the first one for none). */
export async function readStudioForm(
  rt: Runtime,
  c: RequestContext,
  flowOf: (name: string | undefined) => FlowConfig | undefined,
): Promise<{ form: Form; flow: FlowConfig } | Response> {
  if (!isSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'))) return refused(rt, c, 403, 'foreign origin');
  const type = c.req.header('content-type') ?? '';
  const form: Form = type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data') ? await c.req.parseBody() : {};
  const session = c.get('session');
  if (session && !tokensMatch(formText(form, '_csrf') || c.req.header('x-csrf-token'), session.csrfToken)) return refused(rt, c, 403, rt.t('error.csrf'));
  const flow = flowOf(formText(form, 'flow'));
  if (!flow) return notFound(rt, c, rt.t('error.noFlow', { flow: formText(form, 'flow') }));
  return { form, flow };
}

/** What the studio's GETs ask first: may read, and the flow of `?flow=` (the first one for none). */
export async function readFlowQuery(
  rt: Runtime,
  c: RequestContext,
  flowOf: (name: string | undefined) => FlowConfig | undefined,
): Promise<FlowConfig | Response> {
  const verdict = checkAccess(rt, c, 'read');
  if (!verdict.ok) return signInFirst(rt, c, verdict);
  return flowOf(c.req.query('flow')) ?? notFound(rt, c, rt.t('error.noFlow', { flow: c.req.query('flow') }));
}

/** The size bound of every studio form: 413, said in words, past it. */
export function studioFormLimit(rt: Runtime) {
  return bodyLimit({
    maxSize: MAX_STUDIO_FORM_BYTES,
    onError: (c) => refused(rt, c as RequestContext, 413, `the form is larger than ${MAX_STUDIO_FORM_BYTES} bytes (YAML up to 1 MiB, a sample up to 4 MiB)`),
  });
}

/** What the preview and suggest buttons send: may read, the form as above, the editor's text, the sample chosen. */
export async function readStudioEditorForm(
  rt: Runtime,
  c: RequestContext,
  flowOf: (name: string | undefined) => FlowConfig | undefined,
  choose: (flow: FlowConfig, id: string, upload: File | null) => Promise<SampleChoice>,
) {
  const verdict = checkAccess(rt, c, 'read');
  if (!verdict.ok) return signInFirst(rt, c, verdict);
  const got = await readStudioForm(rt, c, flowOf);
  if (got instanceof Response) return got;
  const { form, flow } = got;
  const chosen = await choose(flow, formText(form, 'sample'), formFile(form, 'upload'));
  return { flow, yaml: normalizeEditorText(formText(form, 'yaml')), version: formText(form, 'version') || null, ...chosen };
}

/** A text field ('' when missing or a file). */
export function formText(form: Form, key: string): string {
  const value = form[key];
  return typeof value === 'string' ? value : '';
}

/** A file field (null when missing or text). */
export function formFile(form: Form, key: string): File | null {
  const value = form[key];
  return typeof value === 'object' && value !== null ? value : null;
}
