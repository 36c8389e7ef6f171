/**
 * The mapping page's YAML editor (editor.js: CodeMirror with the flow kind's JSON Schema) in
 * Chromium against a real daemon, under the console's own CSP: keys and values completed from the
 * schema, a key's description on hover, an unknown key, a wrong type and a YAML syntax error
 * underlined with their messages, the daemon's own check (the preview's) marked on its key, and
 * not one CSP violation on the way (a `<style>` added on
 * purpose at the end proves the listener hears one). A Russian console's editor says all that is
 * its own in Russian (its words come in the textarea's `data-words`), and so does the summary of a
 * suggestion.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonSchemaOf } from '../../../../src/config/json-schema.js';
import { REPO } from '../../../helpers/with-daemon.js';
import { latinWords } from '../../../helpers/console/latin-words.js';
import { waitUntil } from '../../../helpers/wait-until.js';
import { collectErrors, withBrowser } from '../../../helpers/console/with-browser.js';
import { withConsoleDaemon } from '../../../helpers/console/with-console-daemon.js';
import { buildEditorBundle, cspViolations, editorText, lintMarks, replaceEditorText, waitForEditor } from '../../../helpers/console/editor-page.js';

const MAPPING = fs.readFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), 'utf8');
const MISTAKES = MAPPING.replace('groupBy: "Номер заявки"', 'groupBy: 5').replace(
  'comment: { column: "Комментарий", optional: true }',
  'comment: { column: "Комментарий", optinal: true }',
);
const BROKEN = MAPPING.replace('groupBy: "Номер заявки"', 'groupBy: { column: "Номер заявки"');
const TWO_SOURCES = MAPPING.replace('customer.inn: { column: "ИНН" }', 'customer.inn: { column: "ИНН", const: "7707083894" }');
const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');
const SCHEMA = jsonSchemaOf('mapping-requests') as { properties: Record<string, { description: string }> };

/** The Latin-script words of ours in a Russian text: what it quotes (keys, values: data) taken out. */
function english(text: string | null): string[] {
  return latinWords((text ?? '').replace(/«[^»]*»|"[^"]*"/g, ' '));
}

/**
 * What the lint tooltip of the mark on `text` says: every message and who says it (the daemon's
 * check may stand beside the editor's). The marks are drawn again when a preview comes back: the
 * hover is tried until a tooltip shows.
 */
async function markSays(page: Page, text: string): Promise<{ messages: string[]; sources: string[] }> {
  await waitUntil(
    async () => {
      await page.mouse.move(0, 0);
      // The daemon's mark may overlap the editor's: the spans nest.
      const mark = page.locator('.cm-lintRange-error', { hasText: text }).first();
      if ((await mark.count()) === 0) return false;
      await mark.hover({ timeout: 2000 }).catch(() => undefined);
      // CodeMirror shows it after the pointer rests a moment.
      return page.waitForSelector('.cm-tooltip-lint', { timeout: 2000 }).then(
        () => true,
        () => false,
      );
    },
    `the tooltip of the mark on ${text}`,
    30_000,
  );
  return {
    messages: await page.locator('.cm-tooltip-lint .cm-diagnosticText').allTextContents(),
    sources: await page.locator('.cm-tooltip-lint .cm-diagnosticSource').allTextContents(),
  };
}

/** The labels of the open completion list. */
async function completions(page: Page): Promise<string[]> {
  await page.waitForSelector('.cm-tooltip-autocomplete li');
  return page.locator('.cm-tooltip-autocomplete li .cm-completionLabel').allTextContents();
}

/**
 * Take the option `label` of the open list, by a click: the keyboard's Enter is ignored for a
 * moment after a list opens (CodeMirror's guard against taking an option while typing on).
 */
async function pick(page: Page, label: string): Promise<void> {
  await page.locator('.cm-tooltip-autocomplete li', { hasText: label }).first().click();
  await page.waitForSelector('.cm-tooltip-autocomplete', { state: 'detached' });
}

// A browser and a daemon on a machine busy with the rest of the suite: a step may wait, never forever.
describe('the mapping editor in Chromium', { timeout: 120_000 }, () => {
  beforeAll(buildEditorBundle);

  it('completes keys and values from the schema, explains a key on hover, and underlines schema and YAML mistakes, under the CSP', async () => {
    await withConsoleDaemon({}, async ({ url }) => {
      await withBrowser(async (open) => {
        const { page } = await open();
        const errors = collectErrors(page);
        await cspViolations(page);
        await page.goto(`${url}/mapping`);
        await waitForEditor(page);

        // The editor stands in for the textarea, which stays in the form with the same text.
        expect(await page.isHidden('textarea#yaml')).toBe(true);
        expect(await editorText(page)).toBe(MAPPING);
        // CodeMirror's styles arrived (its base theme makes the editor a flex column) without a <style> element.
        expect(await page.evaluate("getComputedStyle(document.querySelector('.yaml-editor').shadowRoot.querySelector('.cm-editor')).display")).toBe('flex');
        expect(await page.locator('style').count()).toBe(0);
        // YAML highlighting (theme.ts): a key in the console's blue, a quoted string in green, a comment in grey italics.
        const tokenStyle = (text: string) =>
          page
            .locator('.cm-line span', { hasText: text })
            .first()
            .evaluate((token) => {
              // Runs in the page (the tests are compiled without the DOM's types).
              const style = (globalThis as unknown as { getComputedStyle(element: unknown): { color: string; fontStyle: string } }).getComputedStyle(token);
              return `${style.color} ${style.fontStyle}`;
            });
        expect(await tokenStyle('groupBy')).toBe('rgb(31, 95, 168) normal');
        expect(await tokenStyle('"Номер заявки"')).toBe('rgb(17, 99, 41) normal');
        expect(await tokenStyle('yaml-language-server')).toBe('rgb(106, 115, 125) italic');

        // Mistakes the schema knows: underlined where they are, with its message.
        await replaceEditorText(page, MISTAKES);
        await waitUntil(async () => (await lintMarks(page)).length === 2, 'two lint marks');
        expect(await lintMarks(page)).toEqual(['5', 'optinal']);
        await page.hover('.cm-lintRange-error >> text=optinal');
        expect(await page.textContent('.cm-tooltip-lint .cm-diagnosticText')).toBe('unknown key "optinal" (did you mean optional?)');
        await page.hover('.cm-lintRange-error >> text=5');
        await waitUntil(
          async () => (await page.textContent('.cm-tooltip-lint .cm-diagnosticText')) === 'expected a string, got the number 5',
          'the type message',
        );
        expect(await page.inputValue('#yaml')).toBe(MISTAKES);

        // Typing over a selection across highlighted tokens (which Chromium would redo with inline styles, see type-over-selection.ts).
        await page
          .locator('.cm-line', { hasText: 'groupBy' })
          .first()
          .click({ position: { x: 10, y: 5 } });
        await page.keyboard.press('Home');
        await page.keyboard.press('Shift+ArrowDown');
        await page.keyboard.press('Shift+End');
        await page.keyboard.type('#');
        expect(await page.inputValue('#yaml')).toBe(MISTAKES.replace('groupBy: 5\nrequest:', '#'));
        await page.keyboard.press('Control+z');
        expect(await page.inputValue('#yaml')).toBe(MISTAKES);

        // A key from the schema, with what it is; the keys already there are not offered again.
        await page.keyboard.press('Control+End');
        // The schema's description of a key, on hover.
        await page
          .locator('.cm-line', { hasText: 'groupBy' })
          .first()
          .hover({ position: { x: 10, y: 5 } });
        await page.waitForSelector('.cm-schema-hover');
        expect(await page.textContent('.cm-schema-hover-title')).toBe('groupBy');
        expect(await page.textContent('.cm-schema-hover-description')).toBe(SCHEMA.properties.groupBy!.description);
        await page.keyboard.press('Control+Space');
        const keys = await completions(page);
        expect(keys).toContain('fillDown');
        expect(keys).not.toContain('format');
        expect(keys).not.toContain('groupBy');
        await page.waitForSelector('.cm-completionInfo');
        // The first, selected, says what it is.
        expect(await page.textContent('.cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel')).toBe(keys[0]);
        expect(await page.textContent('.cm-completionInfo')).toBe(SCHEMA.properties[keys[0]!]!.description);
        // The marks are checked again a moment after each change.
        await waitUntil(async () => (await lintMarks(page)).join() === '5,optinal', 'both marks back after the undo');
        await page.keyboard.press('Escape');
        await page.keyboard.type('s');
        expect(await completions(page)).toEqual(['skipRows']);
        expect(await page.textContent('.cm-completionInfo')).toBe(SCHEMA.properties.skipRows!.description);
        await pick(page, 'skipRows');
        // A value the key allows, inside a flow mapping.
        await page.keyboard.type('{ bl');
        expect(await completions(page)).toEqual(['blank']);
        await pick(page, 'blank');
        await page.keyboard.type('f');
        expect(await completions(page)).toEqual(['false']);
        await pick(page, 'false');
        expect(await page.inputValue('#yaml')).toBe(`${MISTAKES}skipRows: { blank: false}`);

        // A YAML syntax error: underlined where the parser stops, as the preview says (line 7, column 1).
        await replaceEditorText(page, BROKEN);
        await waitUntil(async () => (await lintMarks(page)).length === 1, 'one lint mark');
        expect(await lintMarks(page)).toEqual(['r']);
        await page.hover('.cm-lintRange-error');
        expect(await page.textContent('.cm-tooltip-lint .cm-diagnosticText')).toBe('is indented wrongly: keys of one mapping stand in one column');
        expect(await page.textContent('.cm-tooltip-lint .cm-diagnosticSource')).toBe('YAML');
        await waitUntil(async () => ((await page.textContent('#preview')) ?? '').includes('line 7, column 1'), 'the preview says where');

        // What only the daemon checks (a field with two sources) comes from the preview, on its key.
        await replaceEditorText(page, TWO_SOURCES);
        await waitUntil(async () => (await lintMarks(page)).join() === 'customer.inn', 'the daemon’s problem on its key');
        await page.hover('.cm-lintRange-error >> text=customer.inn');
        expect(await page.textContent('.cm-tooltip-lint .cm-diagnosticText')).toBe(
          'needs exactly one of column, path, const, template, parts or counter (it has column, const)',
        );
        expect(await page.textContent('.cm-tooltip-lint .cm-diagnosticSource')).toBe('daemon check');
        // Until the text changes: then only the next preview says.
        await page.keyboard.press('Control+End');
        await page.keyboard.type('#');
        await waitUntil(async () => (await lintMarks(page)).length === 0, 'the old problem gone with the text it was about');
        await waitUntil(async () => (await lintMarks(page)).join() === 'customer.inn', 'and back with the next preview');

        // Not one CSP violation; and the listener does hear one (a <style> element, which style-src 'self' refuses).
        expect(errors, errors.join('\n')).toEqual([]);
        await page.evaluate("document.head.append(Object.assign(document.createElement('style'), { textContent: 'body { color: red }' }))");
        await waitUntil(() => errors.some((error) => error.startsWith('CSP violation: style-src')), 'the control violation heard');
      });
    });
  });

  it('speaks Russian in a Russian console: its marks, their kinds, a type on hover, and the summary of a suggestion', async () => {
    await withConsoleDaemon({ language: 'ru' }, async ({ url, inbox, daemon }) => {
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      await waitUntil(() => daemon.sandbox!.requests().length === 3, 'the sample delivered');
      await withBrowser(async (open) => {
        const { page } = await open();
        const errors = collectErrors(page);
        await page.goto(`${url}/mapping`);
        await waitForEditor(page);

        await replaceEditorText(page, MISTAKES);
        await waitUntil(async () => (await lintMarks(page)).length === 2, 'two lint marks');
        const unknown = await markSays(page, 'optinal');
        expect(unknown.messages).toContain('неизвестный ключ «optinal» (может быть, optional?)');
        expect(unknown.sources).toContain('схема маппинга');
        for (const said of [...unknown.messages, ...unknown.sources]) expect(english(said.replace(/\boptional\b/, ' ')), said).toEqual([]);
        await page.mouse.move(0, 0);
        await page.hover('.cm-lintRange-error >> text=5');
        await waitUntil(
          async () => (await page.textContent('.cm-tooltip-lint .cm-diagnosticText')) === 'ожидается строка, а здесь число 5',
          'the type message',
        );

        // A key's type on hover (its description is the schema's own text, in English, as the schema says it).
        await page.mouse.move(0, 0);
        await page
          .locator('.cm-line', { hasText: 'groupBy' })
          .first()
          .hover({ position: { x: 10, y: 5 } });
        await page.waitForSelector('.cm-schema-hover');
        const type = await page.textContent('.cm-schema-hover-type');
        expect(type).toMatch(/[а-яё]{3}/i);
        expect(english(type), type ?? '').toEqual([]);

        // A YAML syntax error, in the words the preview says it with.
        await replaceEditorText(page, BROKEN);
        await waitUntil(async () => (await lintMarks(page)).length === 1, 'one lint mark');
        const syntax = await markSays(page, 'r');
        expect(syntax.messages).toEqual(['неверный отступ: ключи одного словаря стоят в одном столбце']);

        // The daemon's own check, on its key, named as such.
        await replaceEditorText(page, TWO_SOURCES);
        await waitUntil(async () => (await lintMarks(page)).join() === 'customer.inn', 'the daemon’s problem on its key');
        const daemonSays = await markSays(page, 'customer.inn');
        expect(daemonSays.sources).toEqual(['проверка демона']);
        // It names the keys a field spec takes: those are data.
        for (const said of daemonSays.messages) expect(english(said.replace(/\b(column|path|const|template|parts|counter)\b/g, ' ')), said).toEqual([]);

        // The summary of a suggestion: its headings, counts and last line in Russian (its reasons,
        // warnings and notes are held to Russian in studio-parts.test.ts, where the sample's column
        // names are Cyrillic: a Latin column name quoted in a reason is the sample's, not ours). Only
        // the words before a line's first colon, and the lines wholly ours, are checked here.
        await page.click('#suggest-button');
        await waitUntil(async () => (await page.inputValue('#yaml')).includes('\n# Mapping suggested by'), 'the suggested YAML in the form');
        const summary = (await page.textContent('#suggestion-summary')) ?? '';
        expect(summary).toMatch(/^Предложен маппинг заявок для \S+ \(в редакторе\)\.\n/);
        const lines = summary.split('\n').filter((line) => line.trim() !== '');
        const ours = lines.flatMap((line) => {
          if (/^(Предложен|Предпросмотр на образце|У каждого|Маппинг загружается|Не готово)/.test(line)) return [line];
          const heading = /^\s*(?:- )?([^:]*):/.exec(line);
          return heading ? [heading[1]!] : [];
        });
        expect(ours.length).toBeGreaterThan(5);
        expect(english(ours.join('\n')), summary).toEqual([]);
        expect(errors, errors.join('\n')).toEqual([]);
      });
    });
  });
});
