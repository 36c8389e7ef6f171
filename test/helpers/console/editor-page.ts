/**
 * Driving the mapping page's YAML editor (CodeMirror in a shadow root, which Playwright's CSS
 * selectors pierce) as a person does: click, select all, type; reading what it shows.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO } from '../with-daemon.js';
import { waitUntil } from '../wait-until.js';

/**
 * Bundle the editor from its sources now (half a second), as `npm test` does first: a test run
 * alone (`npx vitest run test/admin`) then serves the editor it is testing, never a stale or
 * missing bundle. The bundle is renamed into place, so test files doing this at once are safe.
 */
export function buildEditorBundle(): void {
  execFileSync(process.execPath, [path.join(REPO, 'src/admin/console/editor/build.mjs')], { stdio: 'pipe' });
}

/** Report every CSP violation of the page as a console error (`collectErrors` hears them). Call before `goto`. */
export async function cspViolations(page: Page): Promise<void> {
  // Page-side code as text: the tests are compiled without the DOM's types. An init script runs whatever the CSP says.
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sourceFile + ':' + event.lineNumber);
    });`,
  });
}

/** Wait until editor.js has put the editor up with the flow's schema. */
export async function waitForEditor(page: Page): Promise<void> {
  await waitUntil(async () => (await page.getAttribute('html', 'data-editor')) === 'ready', 'the editor with its schema');
}

/** The editor's text as it shows it, line by line (a short mapping is rendered whole). */
export async function editorText(page: Page): Promise<string> {
  return (await page.locator('.cm-line').allTextContents()).join('\n');
}

/** Select everything in the editor and type `text` over it (one input, as a paste is). */
export async function replaceEditorText(page: Page, text: string): Promise<void> {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

/** The texts the editor underlines as errors, in document order. */
export async function lintMarks(page: Page): Promise<string[]> {
  return page.locator('.cm-lintRange-error').allTextContents();
}
