/**
 * The mapping page in a real browser (Debian's Chromium through playwright-core) against a real
 * daemon, the in-process sandbox and real folders: edit the YAML in the editor and watch the
 * preview follow, see a syntax error by its line, start from suggest, try an uploaded sample, save,
 * and see the daemon map the next dropped file with the saved mapping; and the same page as a plain
 * form with JavaScript off. The editor's own features (completion, hover, marks, the CSP) are in
 * mapping-editor-browser.test.ts; the manual's picture of the page is `npm run screenshots`'s.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../../helpers/with-daemon.js';
import { waitUntil } from '../../../helpers/wait-until.js';
import { buildEditorBundle, cspViolations, editorText, replaceEditorText, waitForEditor } from '../../../helpers/console/editor-page.js';
import { collectErrors, withBrowser } from '../../../helpers/console/with-browser.js';
import { PASSWORD, withConsoleDaemon } from '../../../helpers/console/with-console-daemon.js';

const SAMPLE = path.join(REPO, 'samples/requests-1c-windows1251.csv');
const MAPPING = fs.readFileSync(path.join(REPO, 'config/mappings/1c-requests.yaml'), 'utf8');
const BOXES = MAPPING.replace('unit: { column: "Ед. изм." }', 'unit: { const: "коробка" }');
const BROKEN = MAPPING.replace('groupBy: "Номер заявки"', 'groupBy: { column: "Номер заявки"');

/** Wait, from the test's side (the CSP refuses the page-side waits that evaluate strings), until the preview says `text`. */
async function previewSays(page: Page, text: string | RegExp, what: string): Promise<void> {
  await waitUntil(async () => {
    const shown = (await page.textContent('#preview')) ?? '';
    return typeof text === 'string' ? shown.includes(text) : text.test(shown);
  }, what);
}

// A browser and a daemon on a machine busy with the rest of the suite: a step may wait, never forever.
describe('the mapping page in Chromium', { timeout: 120_000 }, () => {
  beforeAll(buildEditorBundle);

  it('previews as the operator types, points at a syntax error, starts from suggest, saves, and the daemon maps the next file with it', async () => {
    await withConsoleDaemon({}, async ({ url, inbox, daemon, dir }) => {
      fs.copyFileSync(SAMPLE, path.join(inbox, 'requests.csv'));
      const archive = path.join(inbox, 'archive');
      const archived = () => fs.existsSync(archive) && fs.readdirSync(archive).some((day) => fs.readdirSync(path.join(archive, day)).length > 0);
      // Delivery may finish before the intake moves the file: wait for both.
      await waitUntil(() => daemon.sandbox!.requests().length === 3 && archived(), 'the sample delivered and archived');
      await withBrowser(async (open) => {
        const { page } = await open();
        const errors = collectErrors(page);
        await cspViolations(page);
        await page.goto(`${url}/mapping`);
        await page.click('a.button:has-text("Sign in to save")');
        await page.fill('input[name=name]', 'Ivan');
        await page.fill('input[name=password]', PASSWORD);
        await page.click('form.stack button[type=submit]');
        expect(new URL(page.url()).pathname).toBe('/mapping');
        await waitUntil(async () => (await page.getAttribute('html', 'data-studio')) === 'ready', 'the page’s script');
        await waitForEditor(page);
        expect(await page.textContent('#preview-counts')).toMatch(/requests\.csv: 3 built, 0 problems\./);
        expect(await page.textContent('#preview')).toContain('"unit": "пачка"');

        // Edit: no button pressed, the preview follows.
        await replaceEditorText(page, BOXES);
        await previewSays(page, '"unit": "коробка"', 'the preview follows the edit');

        // A syntax error says where it is; a click on it puts the cursor there (what is typed next goes there).
        await replaceEditorText(page, BROKEN);
        await previewSays(page, 'line 7, column 1', 'the syntax error by its line');
        expect(await page.textContent('#preview')).not.toMatch(/\bat .*\.(ts|js):\d/);
        await page.click('#preview tr[data-line="7"]');
        await page.keyboard.type('#');
        const offset = BROKEN.split('\n').slice(0, 6).join('\n').length + 1;
        expect(await page.inputValue('#yaml')).toBe(`${BROKEN.slice(0, offset)}#${BROKEN.slice(offset)}`);

        // Start from suggest: one button fills the editor from the sample.
        await page.click('#suggest-button');
        await waitUntil(async () => (await page.inputValue('#yaml')).includes('\n# Mapping suggested by'), 'the suggested YAML in the form');
        expect(await editorText(page)).toContain('# Mapping suggested by');
        expect(await page.textContent('#suggestion-summary')).toContain('Suggested a requests mapping');
        await previewSays(page, /requests\.csv: 3 built, 0 problems\./, 'the suggestion previewed');

        // An uploaded sample with a wrong INN: the problem by row, column and value.
        const bad = Buffer.from(fs.readFileSync(SAMPLE).toString('latin1').replaceAll('0274062111', '0274062112'), 'latin1');
        await page.setInputFiles('#upload', { name: 'export-0613.csv', mimeType: 'text/csv', buffer: bad });
        await previewSays(page, 'export-0613.csv: 2 built, 1 problems.', 'the uploaded sample previewed');
        expect(await page.inputValue('#sample')).toMatch(/^upload:/);
        expect(await page.locator('#preview table.problems tbody tr').allTextContents()).toEqual([
          // The page words the problem from its key (the report's English sentence is for the log and the file).
          '5ЗК-000102customer.innИННINN_INVALIDfails the INN check digit0274062112',
        ]);
        await replaceEditorText(page, BOXES);
        await previewSays(page, '"unit": "коробка"', 'the edit previewed on the upload');
        expect(await page.inputValue('#sample')).toMatch(/^upload:/);

        // Save: checked, backed up, written, reloaded, announced.
        await Promise.all([page.waitForNavigation(), page.click('#save-button')]);
        expect(await page.textContent('.flash')).toMatch(
          /Save a mapping: done\. Saved .*mapping\.yaml \(the previous one kept as mapping\.yaml\.\d{8}-\d{6}\.bak\); mappings reloaded/,
        );
        expect(fs.readFileSync(path.join(dir, 'mapping.yaml'), 'utf8')).toBe(BOXES);
        expect(await page.inputValue('#yaml')).toBe(BOXES);
        await waitForEditor(page);
        expect(await editorText(page)).toBe(BOXES);
        expect(await page.textContent('table.audit')).toContain('Ivan');

        // The daemon maps the next dropped file with it.
        const next = fs.readFileSync(SAMPLE).toString('latin1').replaceAll('\xc7\xca-0001', '\xc7\xca-0002');
        fs.writeFileSync(path.join(inbox, 'requests-2.csv'), Buffer.from(next, 'latin1'));
        await waitUntil(() => daemon.sandbox!.requests().length === 6, 'the next file delivered');
        const units = daemon.sandbox!.requests().flatMap((r) => (r.externalId.startsWith('ЗК-0002') ? r.body.items.map((item) => item.unit) : []));
        expect(units).toEqual(Array(9).fill('коробка'));
        expect(errors, errors.join('\n')).toEqual([]);
      });
    });
  });

  it('works with JavaScript off: the plain textarea form previews an uploaded sample and saves', async () => {
    await withConsoleDaemon({}, async ({ url, dir }) => {
      await withBrowser(async (open) => {
        const { page } = await open({ javaScript: false });
        await page.goto(`${url}/mapping`);
        await page.click('a.button:has-text("Sign in to save")');
        await page.fill('input[name=name]', 'Olga');
        await page.fill('input[name=password]', PASSWORD);
        await page.click('form.stack button[type=submit]');
        expect(new URL(page.url()).pathname).toBe('/mapping');
        // No editor: the textarea is the editor.
        expect(await page.isVisible('textarea#yaml')).toBe(true);
        expect(await page.locator('.cm-editor').count()).toBe(0);

        await page.fill('#yaml', BOXES);
        await page.setInputFiles('#upload', SAMPLE);
        await Promise.all([page.waitForNavigation(), page.click('#preview-button')]);
        expect(await page.textContent('#preview-counts')).toMatch(/requests-1c-windows1251\.csv: 3 built, 0 problems\./);
        expect(await page.textContent('#preview')).toContain('"unit": "коробка"');
        expect(await page.inputValue('#yaml')).toBe(BOXES);

        await Promise.all([page.waitForNavigation(), page.click('#save-button')]);
        expect(await page.textContent('.flash')).toMatch(/Save a mapping: done\./);
        expect(fs.readFileSync(path.join(dir, 'mapping.yaml'), 'utf8')).toBe(BOXES);
      });
    });
  });
});
