/**
 * The operator's actions, each behind a confirmation: GET shows what it will do (a page that works
 * without JavaScript), POST does it. Every POST needs a session, the session's CSRF token (form
 * field `_csrf` or header `X-CSRF-Token`) and a same-origin request; every outcome is written to
 * `audit` (who, what, when, result), logged, and announced on the page it touched.
 *
 *   retry-submission  /flows/<flow>/requests/<externalId>/retry   requeue (rejected, held, dead) with its key
 *   retry-dead        /flows/<flow>/dead/retry                     requeue every dead letter of the flow
 *   retake-file       /flows/<flow>/files/<fileId>/retake          move a rejected file back into the inbox
 *   resume-flow       /flows/<flow>/resume                         a paused or open flow probes now
 *   resolve-notice    /flows/<flow>/notices/<noticeId>/resolve     a document notice is marked handled
 */
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describeError, isConnectorError } from '../../errors.js';
import type { MessageText } from '../../shared/types.js';
import { AUDIT_RESULT, getAuditEntry, recordAudit, type AuditResult } from '../../store/audit.js';
import { submissionsInState } from '../../store/console-submissions.js';
import { fileDetail } from '../../store/console-files.js';
import { requeueSubmissions } from '../../store/outbox.js';
import { getNotice, resolveNoticeById } from '../../store/document-notices.js';
import { isSameOrigin } from './access.js';
import { auditItem } from './data/shapes.js';
import { translateOr } from './i18n.js';
import { paths } from './paths.js';
import { html, notFound, refused, signInFirst } from './respond.js';
import { checkAccess, clientAddress, viewContext, wantsJson, type ConsoleEnv, type RequestContext, type Runtime } from './runtime.js';
import { tokensMatch } from './sessions.js';
import { ConfirmPage } from './views/forms.js';

export const CONSOLE_ACTION = {
  retrySubmission: 'retry-submission',
  retryDead: 'retry-dead',
  retakeFile: 'retake-file',
  resumeFlow: 'resume-flow',
  resolveNotice: 'resolve-notice',
} as const;
export type ConsoleAction = (typeof CONSOLE_ACTION)[keyof typeof CONSOLE_ACTION];

interface ActionOutcome {
  result: AuditResult;
  /** For the log. */
  detail: string;
  /** For the console, in its language. */
  text: MessageText;
}

/** One action: its address, what the confirmation asks, what it does, and the page it touched. */
interface ActionRoute {
  action: ConsoleAction;
  path: string;
  /** The target as the audit names it (an externalId, a file id, the flow); null when the path names none that exists. */
  target(c: RequestContext, flow: string, rt: Runtime): string | null;
  question(rt: Runtime, flow: string, target: string): string;
  perform(rt: Runtime, flow: string, target: string): Promise<ActionOutcome>;
  back(flow: string, target: string): string;
}

const ROUTES: ActionRoute[] = [
  {
    action: CONSOLE_ACTION.retrySubmission,
    path: '/flows/:flow/requests/:externalId/retry',
    target: (c) => c.req.param('externalId') ?? null,
    question: (rt, flow, target) => rt.t('confirm.retry-submission', { flow, target }),
    perform: (rt, flow, target) => {
      const count = requeueSubmissions(rt.deps.db, { externalId: target }, rt.deps.clock(), flow);
      if (count > 0) rt.deps.operator.wakeDelivery();
      return Promise.resolve(
        count > 0
          ? { result: AUDIT_RESULT.ok, detail: `${count} submission(s) requeued with their Idempotency-Key`, text: { key: 'requeued', params: { n: count } } }
          : { result: AUDIT_RESULT.nothing, detail: 'nothing was rejected, held or dead', text: { key: 'nothingToRetry' } },
      );
    },
    back: (flow, target) => paths.request(flow, target),
  },
  {
    action: CONSOLE_ACTION.retryDead,
    path: '/flows/:flow/dead/retry',
    target: (_c, flow) => flow,
    question: (rt, flow) => rt.t('confirm.retry-dead', { flow, n: submissionsInState(rt.deps.db, flow, 'dead', 0).total }),
    perform: (rt, flow) => {
      const count = requeueSubmissions(rt.deps.db, { dead: true }, rt.deps.clock(), flow);
      if (count > 0) rt.deps.operator.wakeDelivery();
      return Promise.resolve(
        count > 0
          ? { result: AUDIT_RESULT.ok, detail: `${count} dead letter(s) requeued`, text: { key: 'deadRequeued', params: { n: count } } }
          : { result: AUDIT_RESULT.nothing, detail: 'no dead letters', text: { key: 'noDeadLetters' } },
      );
    },
    back: () => paths.attention(),
  },
  {
    action: CONSOLE_ACTION.retakeFile,
    path: '/flows/:flow/files/:fileId{[0-9]+}/retake',
    target: (c) => c.req.param('fileId') ?? null,
    question: (rt, flow, target) => rt.t('confirm.retake-file', { flow, target, name: fileDetail(rt.deps.db, Number(target))?.originalName ?? '—' }),
    perform: async (rt, flow, target) => {
      const { inboxName } = await rt.deps.operator.retakeFile(flow, Number(target));
      return { result: AUDIT_RESULT.ok, detail: `moved back into the inbox as ${inboxName}`, text: { key: 'retaken', params: { name: inboxName } } };
    },
    back: (flow, target) => paths.file(flow, Number(target)),
  },
  {
    action: CONSOLE_ACTION.resumeFlow,
    path: '/flows/:flow/resume',
    target: (_c, flow) => flow,
    question: (rt, flow) => {
      const mode = rt.deps.operator.flowGate(flow)?.mode ?? 'closed';
      return rt.t('confirm.resume-flow', { flow, mode: translateOr(rt.t, `gate.${mode}`, mode) });
    },
    perform: (rt, flow) =>
      Promise.resolve(
        rt.deps.operator.resumeFlow(flow)
          ? { result: AUDIT_RESULT.ok, detail: 'a probe is sent now', text: { key: 'probeSent' } }
          : { result: AUDIT_RESULT.nothing, detail: 'the flow was sending already', text: { key: 'alreadySending' } },
      ),
    back: () => paths.attention(),
  },
  {
    action: CONSOLE_ACTION.resolveNotice,
    path: '/flows/:flow/notices/:noticeId{[0-9]+}/resolve',
    target: (c, flow, rt) => {
      const notice = getNotice(rt.deps.db, Number(c.req.param('noticeId')));
      return notice?.flow === flow ? String(notice.id) : null;
    },
    question: (rt, flow, target) => {
      const notice = getNotice(rt.deps.db, Number(target));
      return rt.t('confirm.resolve-notice', { flow, number: notice?.documentNumber ?? notice?.documentId ?? target });
    },
    perform: (rt, _flow, target) =>
      Promise.resolve(
        resolveNoticeById(rt.deps.db, Number(target), rt.deps.clock())
          ? { result: AUDIT_RESULT.ok, detail: `document notice ${target} marked handled`, text: { key: 'noticeResolved' } }
          : { result: AUDIT_RESULT.nothing, detail: 'the notice was closed already', text: { key: 'noticeClosedAlready' } },
      ),
    back: () => paths.attention(),
  },
];

/** Form bodies are a CSRF token and a name or two. */
const MAX_FORM_BYTES = 16 * 1024;

export function addActions(app: Hono<ConsoleEnv>, rt: Runtime): void {
  for (const route of ROUTES) {
    /** Session, a configured password, a known flow, an existing target: or the answer that says which is missing. */
    const guard = async (c: RequestContext): Promise<{ flow: string; target: string } | Response> => {
      if (!rt.passwordSet) return refused(rt, c, 403, rt.t('error.actionsOff'));
      const verdict = checkAccess(rt, c, 'act');
      if (!verdict.ok) return signInFirst(rt, c, verdict);
      const flow = c.req.param('flow') ?? '';
      if (!rt.flowNames.includes(flow)) return notFound(rt, c, rt.t('error.noFlow', { flow }));
      const target = route.target(c, flow, rt);
      if (target === null) return notFound(rt, c, rt.t('error.notFound'));
      return { flow, target };
    };

    app.get(route.path, async (c) => {
      const checked = await guard(c);
      if (checked instanceof Response) return checked;
      const { flow, target } = checked;
      return html(
        c,
        <ConfirmPage
          ctx={viewContext(rt, c, false)}
          action={new URL(c.req.url).pathname}
          question={route.question(rt, flow, target)}
          cancel={route.back(flow, target)}
        />,
      );
    });

    app.post(route.path, bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => refused(rt, c as RequestContext, 413, 'form too large') }), async (c) => {
      const checked = await guard(c);
      if (checked instanceof Response) return checked;
      const { flow, target } = checked;
      const session = c.get('session')!;
      if (!isSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'))) return refused(rt, c, 403, 'foreign origin');
      const form =
        c.req.header('content-type')?.startsWith('application/x-www-form-urlencoded') || c.req.header('content-type')?.startsWith('multipart/form-data')
          ? await c.req.parseBody()
          : {};
      const token = typeof form._csrf === 'string' ? form._csrf : c.req.header('x-csrf-token');
      if (!tokensMatch(token, session.csrfToken)) return refused(rt, c, 403, rt.t('error.csrf'));

      // The time the operator acted, before the action's own effects (a retry's next attempt) happen.
      const at = rt.deps.clock();
      let outcome: ActionOutcome;
      try {
        outcome = await route.perform(rt, flow, target);
      } catch (error) {
        if (!isConnectorError(error, 'CONSOLE_ACTION_FAILED')) rt.log.error({ err: error, action: route.action, flow, target }, 'console action failed');
        // The reason of a refusal (a file gone from rejected/) is the intake's English sentence: the
        // console names its code in words; the log keeps the sentence.
        const said = isConnectorError(error) ? (error.details.text as MessageText | undefined) : undefined;
        outcome = {
          result: AUDIT_RESULT.failed,
          detail: describeError(error),
          text: said ?? { key: 'actionFailed', params: { code: isConnectorError(error) ? error.code : 'INTERNAL_ERROR' } },
        };
      }
      const entry = {
        at,
        actor: session.actor,
        address: clientAddress(c),
        action: route.action,
        flow,
        target,
        result: outcome.result,
        detail: outcome.detail,
        detailText: JSON.stringify(outcome.text),
      };
      const id = recordAudit(rt.deps.db, entry);
      // One fsync makes the action's own commit (a requeue) and its audit entry durable before the answer.
      await rt.durable();
      const fields = { audit: id, actor: entry.actor, address: entry.address, action: entry.action, flow, target, result: entry.result, detail: entry.detail };
      if (outcome.result === AUDIT_RESULT.failed) rt.log.warn({ ...fields, code: 'CONSOLE_ACTION_FAILED' }, 'console action failed');
      else rt.log.info(fields, 'console action');
      if (wantsJson(c)) return c.json({ audit: auditItem(getAuditEntry(rt.deps.db, id)!) }, outcome.result === AUDIT_RESULT.failed ? 409 : 200);
      return c.redirect(`${route.back(flow, target)}?done=${id}`, 303);
    });
  }
}
