/** The sign-in page, an action's confirmation page, and the page of a refusal or a missing thing. */
import { paths } from '../paths.js';
import { Layout } from './layout.js';
import type { ViewContext } from './view-context.js';

export function LoginPage(props: { ctx: ViewContext; next: string; name: string; problem: string | null; passwordSet: boolean }) {
  const { ctx } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('login.title')}>
      <section class="card narrow">
        <h1>{t('login.title')}</h1>
        <p class="muted">{t('login.why')}</p>
        {props.problem ? (
          <p class="error" role="alert">
            {props.problem}
          </p>
        ) : null}
        {props.passwordSet ? (
          <form method="post" action={paths.login()} class="stack">
            <input type="hidden" name="next" value={props.next} />
            <label>
              {t('login.name')}
              <input type="text" name="name" value={props.name} maxlength={100} autocomplete="username" />
            </label>
            <label>
              {t('login.password')}
              <input type="password" name="password" required autocomplete="current-password" autofocus />
            </label>
            <button type="submit">{t('login.button')}</button>
          </form>
        ) : (
          <p class="error">{t('login.noPassword')}</p>
        )}
      </section>
    </Layout>
  );
}

export function ConfirmPage(props: { ctx: ViewContext; action: string; question: string; cancel: string }) {
  const { ctx } = props;
  const { t } = ctx;
  return (
    <Layout ctx={ctx} title={t('confirm.title')}>
      <section class="card narrow">
        <h1>{t('confirm.title')}</h1>
        <p>{props.question}</p>
        <form method="post" action={props.action} class="inline">
          <input type="hidden" name="_csrf" value={ctx.session?.csrfToken ?? ''} />
          <button type="submit" class="primary">
            {t('common.confirm')}
          </button>{' '}
          <a class="button secondary" href={props.cancel}>
            {t('common.cancel')}
          </a>
        </form>
      </section>
    </Layout>
  );
}

export function MessagePage(props: { ctx: ViewContext; title: string; message: string }) {
  return (
    <Layout ctx={props.ctx} title={props.title}>
      <section class="card narrow">
        <h1>{props.title}</h1>
        <p>{props.message}</p>
        <p>
          <a href={paths.overview()}>{props.ctx.t('nav.overview')}</a>
        </p>
      </section>
    </Layout>
  );
}
