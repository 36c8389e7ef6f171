/**
 * The mapping page's editor (bundled by build.mjs into assets/editor.js). The page works without
 * it: the server renders a plain `<textarea name="yaml">` and mapping.js drives the preview from
 * it. This script puts CodeMirror in its place, with completion, hover and inline errors from the
 * flow kind's mapping schema, which it fetches from the URL in the textarea's `data-schema`.
 * `<html data-editor>` says how that went: `ready`, or `no-schema` (an editor that still checks
 * the YAML, without the schema's completion, hover and checks). What the editor says is in the
 * console's language: the page gives its words as JSON in the textarea's `data-words` (words.ts).
 */
import { createEditor } from './create-editor.js';
import type { Schema } from './schema-walk.js';
import { sayWith, type Say } from './words.js';

async function fetchSchema(url: string): Promise<Schema | null> {
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (!response.ok) return null;
    const schema: unknown = await response.json();
    return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Schema) : null;
  } catch {
    return null;
  }
}

/** The words the page gave the editor (a JSON object in the textarea's `data-words`); English without. */
function pageWords(textarea: HTMLTextAreaElement): Say {
  try {
    const words: unknown = JSON.parse(textarea.dataset.words ?? '{}');
    return sayWith(typeof words === 'object' && words !== null && !Array.isArray(words) ? (words as Record<string, unknown>) : {});
  } catch {
    return sayWith({});
  }
}

async function start(): Promise<void> {
  const textarea = document.getElementById('yaml');
  if (!(textarea instanceof HTMLTextAreaElement)) return;
  const url = textarea.dataset.schema;
  const schema = url ? await fetchSchema(url) : null;
  const label = document.querySelector(`label[for="${textarea.id}"]`)?.textContent?.trim() ?? 'YAML';
  createEditor({ textarea, schema, label, say: pageWords(textarea) });
  document.documentElement.dataset.editor = schema ? 'ready' : 'no-schema';
}

void start();
