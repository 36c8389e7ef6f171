/**
 * A Russian console speaks Russian on every page (Debian's Chromium through playwright-core), on a
 * day's work with problems of every kind (console-pages.ts): problems of a file and of 1C's message,
 * notes, dead letters with the platform's answers, an operator's action, the attention list. What
 * the connector says is worded from its code and parameters; what is data stays as it is and is
 * marked as such (`<code>`, the platform's own words in `<q class="said">`, JSON in `<pre>`), and
 * is left out of the check. Any Latin-script word of ours fails it (`latin-words.ts`: identifiers,
 * paths, commands and a short list of product names are not words of ours; nor are the flows' names).
 * The mapping page's editor is given its words as data (`data-words`): they are checked too (the
 * editor's marks themselves, and the suggest summary, in studio/mapping-editor-browser.test.ts).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_FLOW, REQUESTS_FLOW, walkEveryPage, withEveryPage } from '../../helpers/console/console-pages.js';
import { latinWords } from '../../helpers/console/latin-words.js';
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

/** The flows' names are the operator's own, data like a file's name. */
const FLOW_NAMES: ReadonlySet<string> = new Set([REQUESTS_FLOW, EXCHANGE_FLOW]);

/** Latin-script words of ours on a Russian page (`latin-words.ts`), less the flows' names. */
function englishWords(text: string): string[] {
  return [...new Set(latinWords(text).filter((word) => !FLOW_NAMES.has(word)))];
}

/** Every page after a day's work, in a real browser: longer than one ordinary test, more so on a loaded machine. */
const WALK_TIMEOUT_MS = 120_000;

describe('a Russian console', () => {
  it(
    'words every problem, note, answer of the platform, action and hint in Russian, on every page',
    async () => {
      // Every page's English at once, by page: one run shows all that is left.
      const english: Record<string, string[]> = {};
      await withEveryPage({ language: 'ru' }, (c) =>
        withBrowser((open) =>
          walkEveryPage(
            () => open(),
            c,
            async (page, entry, address) => {
              const text = await wordsOfOurs(page);
              // The page was read: it has words of ours, in Russian.
              expect(text, `${entry.name} (${address})`).toMatch(/[а-яё]{3}/i);
              const words = englishWords(text);
              if (words.length > 0) english[`${entry.name} (${address})`] = words;
              // The mapping editor's words (its marks, types, hover), which the page gives it in `data-words`.
              const editorWords = await page
                .locator('textarea[data-words]')
                .evaluateAll((areas) => areas.map((area) => (area as unknown as { dataset: { words: string } }).dataset.words));
              for (const json of editorWords) {
                const said = Object.values(JSON.parse(json) as Record<string, string>).map((word) => word.replace(/\{\w+\}/g, ' '));
                expect(said.length, `${entry.name}: the editor's words`).toBeGreaterThan(40);
                const latin = englishWords(said.join('\n'));
                if (latin.length > 0) english[`${entry.name} (${address}): the editor's words`] = latin;
              }
            },
          ),
        ),
      );
      expect(english).toEqual({});
    },
    WALK_TIMEOUT_MS,
  );

  it('the check finds an English word of ours, and leaves code, paths, identifiers, commands and names alone', () => {
    expect(englishWords('Строка 4: customer.inn fails the INN check digit')).toEqual(['fails', 'the', 'check', 'digit']);
    expect(englishWords('Статус: confirmed')).toEqual(['confirmed']);
    expect(englishWords('Что нашёл suggest')).toEqual(['suggest']);
    expect(
      englishWords(
        'Строка 4: customer.inn не проходит проверку; Idempotency-Key erp1c:R-1, items[0].quantity, ack-ЗК-000102-2.csv, <файл>.<дата>.bak, ' +
          'EnterpriseData, ERP, выполните systemctl reload, поток requests, transliterateFileNames: true, Excel',
      ),
    ).toEqual([]);
  });
});
