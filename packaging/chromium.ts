/**
 * `withBrowser(fn)`: Debian's Chromium (`apt-get install chromium`; `npm test` installs it first when
 * it is missing and it can: test/helpers/ensure-chromium.sh), driven by playwright-core, headless,
 * with a fresh profile, closed whatever happens. No browser build is ever downloaded. The browser
 * tests and `npm run screenshots` open their pages through it, so both see the same window.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The window every page is opened in (the manual's pictures have its width). */
export const VIEWPORT = { width: 1360, height: 900 } as const;

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

export type OpenPage = (options?: { locale?: string; javaScript?: boolean }) => Promise<{ context: BrowserContext; page: Page }>;

export async function withBrowser<T>(fn: (open: OpenPage) => Promise<T>): Promise<T> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (npm test installs it first when run as root on Debian)`);
  }
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    return await fn(async (options = {}) => {
      const context = await browser.newContext({
        viewport: VIEWPORT,
        locale: options.locale ?? 'en-US',
        deviceScaleFactor: 1,
        javaScriptEnabled: options.javaScript ?? true,
      });
      const page = await context.newPage();
      // Shorter than a test's own timeout, so a step that never happens names itself.
      page.setDefaultTimeout(10_000);
      return { context, page };
    });
  } finally {
    await browser.close();
  }
}
