/**
 * A Russian console speaks Russian on every page (Debian's Chromium through playwright-core), on a
 * day's work with problems of every kind (console-pages.ts): problems of a file and of 1C's message,
 * notes, dead letters with the platform's answers, an operator's action, the attention list. What
 * the connector says is worded from its code and parameters; what is data stays as it is and is
 * marked as such (`<code>`, the platform's own words in `<q class="said">`, JSON in `<pre>`), and
 * is left out of the check.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { walkEveryPage, withEveryPage } from '../../helpers/console/console-pages.js';
import { withBrowser } from '../../helpers/console/with-browser.js';

/** The page's text as a person reads it, without what is data: codes, JSON, quoted words, the YAML editor, form values. */
function wordsOfOurs(page: Page): Promise<string> {
  return page.evaluate(() => {
    interface Element {
      cloneNode(deep: boolean): Element;
      querySelectorAll(selector: string): ArrayLike<{ remove(): void }>;
      innerText: string;
    }
    const doc = (
      globalThis as unknown as { document: { body: Element; title: string; documentElement: { appendChild(e: Element): void; removeChild(e: Element): void } } }
    ).document;
    const copy = doc.body.cloneNode(true);
    const data = copy.querySelectorAll('code, pre, q.said, textarea, .cm-editor, script, style, select, input, .json, [data-data]');
    for (let i = data.length - 1; i >= 0; i -= 1) data[i]!.remove();
    // innerText needs the copy laid out: it is attached for the moment of the read.
    doc.documentElement.appendChild(copy);
    const text = copy.innerText;
    doc.documentElement.removeChild(copy);
    return `${doc.title}\n${text}`;
  });
}

/**
 * Runs of three Latin words or more: a sentence of ours left in English. Names that are data or
 * terms the Russian text uses as they are (a flow's name, `Idempotency-Key`, `EnterpriseData`, a
 * file's name) come one or two at a time.
 */
function englishRuns(text: string): string[] {
  return [...text.matchAll(/[A-Za-z][A-Za-z'’]+(?:[ \t]+[A-Za-z][A-Za-z'’]+){2,}/g)].map((match) => match[0]);
}

/** Every page after a day's work, in a real browser: longer than one ordinary test, more so on a loaded machine. */
const WALK_TIMEOUT_MS = 120_000;

describe('a Russian console', () => {
  it(
    'words every problem, note, answer of the platform, action and hint in Russian, on every page',
    async () => {
      await withEveryPage({ language: 'ru' }, (c) =>
        withBrowser((open) =>
          walkEveryPage(
            () => open(),
            c,
            async (page, entry, address) => {
              expect(englishRuns(await wordsOfOurs(page)), `English text on ${entry.name} (${address})`).toEqual([]);
            },
          ),
        ),
      );
    },
    WALK_TIMEOUT_MS,
  );

  it('the check finds an English sentence when there is one', () => {
    expect(englishRuns('Строка 4: customer.inn fails the INN check digit').join()).toContain('fails the INN check digit');
    expect(englishRuns('Строка 4: customer.inn не проходит проверку; Idempotency-Key erp1c:R-1')).toEqual([]);
  });
});
