/**
 * A console view rendered to HTML, without turning on Node's promise hooks for the whole daemon.
 *
 * hono/jsx (since 4.12.27) keeps each render's context in an `AsyncLocalStorage`, which it looks up
 * once, on its first render, through `process.getBuiltinModule('node:async_hooks')`. On Node 20 the
 * first `run()` of any `AsyncLocalStorage` enables V8's promise hooks for the rest of the process,
 * and every promise of every stage pays for them from then on: every `await` costs more, in
 * delivery, the intake and the listener alike (`docs/performance.md`, *2* and *8*, has the
 * figures). Node 22's async context frames do without the hooks; Node 20 has none.
 *
 * The console's components are synchronous and read no JSX context, so a render needs no storage:
 * the first render is made here with that one lookup answered "no such class", and hono keeps its
 * synchronous fallback (documented for runtimes without `AsyncLocalStorage`) from then on. Nothing
 * else is changed, and only for that render. `test/admin/console/promise-hooks.test.ts` fails if a
 * hono update looks the class up some other way.
 */
import { Fragment, jsx } from 'hono/jsx/jsx-runtime';
import type { JSX } from 'hono/jsx/jsx-runtime';

let storageRefused = false;

function refuseRenderStorage(): void {
  if (storageRefused) return;
  storageRefused = true;
  const lookUp = process.getBuiltinModule.bind(process);
  process.getBuiltinModule = ((id: string) => (id === 'node:async_hooks' || id === 'async_hooks' ? {} : lookUp(id))) as typeof process.getBuiltinModule;
  try {
    String(jsx(Fragment, {}));
  } finally {
    process.getBuiltinModule = lookUp;
  }
}

/** The HTML of a view (a page, or a part of one). */
export async function renderHtml(view: JSX.Element | Promise<JSX.Element>): Promise<string> {
  refuseRenderStorage();
  return String(await view);
}
