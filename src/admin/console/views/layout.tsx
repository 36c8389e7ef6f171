/**
 * The page frame: header with the menu and the sign-in state, the flash of a done action, the
 * live-refresh script (and a page's own). The menu's Requests and Files are every flow's
 * (`/requests`, `/files`); each flow's own page is chosen there.
 */
import type { Child } from 'hono/jsx';
import { translateOr } from '../i18n.js';
import { paths } from '../paths.js';
import type { ViewContext } from './view-context.js';

/** `script`: one more asset the page runs besides `console.js` (the mapping page's editor). */
export function Layout(props: { ctx: ViewContext; title: string; script?: string; children?: Child }) {
  const { ctx } = props;
  const { t } = ctx;
  return (
    <html lang={ctx.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${t('app.title')}`}</title>
        <link rel="icon" href={paths.asset('favicon.svg')} type="image/svg+xml" />
        <link rel="stylesheet" href={paths.asset('console.css')} />
        <script src={paths.asset('console.js')} defer></script>
        {props.script ? <script src={paths.asset(props.script)} defer></script> : null}
      </head>
      <body>
        <header class="top">
          <a class="brand" href={paths.overview()}>
            {t('app.title')}
          </a>
          <nav>
            <a href={paths.overview()}>{t('nav.overview')}</a>
            <a href={paths.attention()}>{t('nav.attention')}</a>
            <a href={paths.events()}>{t('nav.events')}</a>
            <a href={paths.audit()}>{t('nav.audit')}</a>
            <a href={paths.allRequests()}>{t('nav.requests')}</a>
            <a href={paths.allFiles()}>{t('nav.files')}</a>
            <a href={paths.mapping()}>{t('nav.mapping')}</a>
          </nav>
          <div class="who">
            {ctx.session ? (
              <form method="post" action={paths.logout()} class="inline">
                <span>{t('nav.signedInAs', { name: ctx.session.actor })}</span> <input type="hidden" name="_csrf" value={ctx.session.csrfToken} />
                <button type="submit" class="link">
                  {t('nav.signOut')}
                </button>
              </form>
            ) : (
              <a href={paths.login(ctx.path)}>{t('nav.signIn')}</a>
            )}
          </div>
        </header>
        <main>
          {ctx.flash ? (
            <p class={`flash r-${ctx.flash.result}`} role="status">
              {t('flash.done', {
                action: sentenceCase(translateOr(t, `action.${ctx.flash.action}`, ctx.flash.action)),
                result: translateOr(t, `result.${ctx.flash.result}`, ctx.flash.result),
                detail: sentenceCase(ctx.flash.detail ?? ''),
              })}
            </p>
          ) : null}
          {props.children}
        </main>
      </body>
    </html>
  );
}

/**
 * A flash is sentences (`Повторная отправка заявки: выполнено. Ничего не было отклонено`): each
 * starts with a capital, unless it starts with a name that is data (a file, a path).
 */
export function sentenceCase(text: string): string {
  const first = /^\S+/.exec(text)?.[0] ?? '';
  if (!/^\p{Ll}/u.test(first) || /[./\\]/.test(first)) return text;
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}
