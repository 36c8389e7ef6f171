/**
 * `withBrowser(fn)`: Debian's Chromium driven by playwright-core (`packaging/chromium.ts`, shared
 * with `npm run screenshots`). A missing Chromium fails the test loudly: CI has one.
 */
import type { Page } from 'playwright-core';

export { CHROMIUM, withBrowser } from '../../../packaging/chromium.js';

/** Errors the page reported (a CSP violation shows up here). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
