/**
 * `withBrowser(fn)`: Debian's Chromium (`apt-get install chromium`; `npm test` installs it first when it is
 * missing and it can: test/helpers/ensure-chromium.sh), driven by playwright-core, headless, with a fresh profile, closed whatever happens.
 * No browser build is ever downloaded. A missing Chromium fails the test loudly: CI has one.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function withBrowser<T>(
  fn: (open: (options?: { locale?: string; javaScript?: boolean }) => Promise<{ context: BrowserContext; page: Page }>) => Promise<T>,
): Promise<T> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (npm test installs it first when run as root on Debian)`);
  }
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    return await fn(async (options = {}) => {
      const context = await browser.newContext({
        viewport: { width: 1360, height: 900 },
        locale: options.locale ?? 'en-US',
        deviceScaleFactor: 1,
        javaScriptEnabled: options.javaScript ?? true,
      });
      const page = await context.newPage();
      // Shorter than the test's own timeout, so a step that never happens names itself.
      page.setDefaultTimeout(10_000);
      return { context, page };
    });
  } finally {
    await browser.close();
  }
}

/** Errors the page reported (a CSP violation shows up here). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
