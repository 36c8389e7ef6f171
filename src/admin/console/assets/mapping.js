// The mapping page's script. The page works without it (each button posts the form). With it, the
// preview follows the editor: a pause in typing, another sample or an uploaded file posts the same
// form to /mapping/preview?part=preview and swaps in the #preview it answers (rendered by the
// server, as on the first load); "Suggest" fills the editor from /mapping/suggest; a click on a
// YAML problem that has a line puts the cursor there. No inline script, no other origin (CSP).
// It works on the plain textarea; when editor.js has put its editor in the textarea's place, the
// editor keeps the textarea's value and announces each change with an `input` event, and this
// script tells the editor of a new text (`mapping:replaced`), of a new preview and the text it
// checked (`mapping:checked`), and asks it to move the cursor (`mapping:goto`, which the editor
// cancels to say it did).
'use strict';

const PAUSE_MS = 400;

const form = document.getElementById('studio');
const editor = document.getElementById('yaml');
const sampleSelect = document.getElementById('sample');
const upload = document.getElementById('upload');

let timer;
let running = null;
let generation = 0;

/** A message where the preview goes, as text (never markup). */
function showProblem(text) {
  const section = document.getElementById('preview');
  const line = document.createElement('p');
  line.className = 'error';
  line.textContent = text;
  section.querySelector('p.error.script')?.remove();
  line.classList.add('script');
  section.prepend(line);
}

/** An uploaded sample is kept by the server: choose it by its id from now on instead of sending the file again. */
function adoptSample(id, label) {
  if (!id || !id.startsWith('upload:')) return;
  let option = [...sampleSelect.options].find((o) => o.value === id);
  if (!option) {
    option = document.createElement('option');
    option.value = id;
    option.textContent = label;
    sampleSelect.append(option);
  }
  sampleSelect.value = id;
  upload.value = '';
}

async function refreshPreview() {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const mine = ++generation;
  try {
    const body = new FormData(form);
    const posted = body.get('yaml');
    const response = await fetch('/mapping/preview?part=preview', {
      method: 'POST',
      body,
      headers: { accept: 'text/html' },
      credentials: 'same-origin',
      signal: controller.signal,
    });
    if (mine !== generation) return;
    if (!response.ok) {
      showProblem(`${form.dataset.failed} (HTTP ${response.status})`);
      return;
    }
    const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById('preview');
    if (!fresh || mine !== generation) return;
    document.getElementById('preview').replaceWith(fresh);
    editor.dispatchEvent(new CustomEvent('mapping:checked', { detail: { yaml: posted } }));
    adoptSample(fresh.dataset.sampleId, fresh.dataset.sampleLabel);
    document.documentElement.dataset.previewed = String(mine);
  } catch (error) {
    if (error.name !== 'AbortError') showProblem(`${form.dataset.failed}: ${error.message}`);
  }
}

function soon() {
  clearTimeout(timer);
  timer = setTimeout(() => refreshPreview(), PAUSE_MS);
}

async function suggest() {
  const response = await fetch('/mapping/suggest', {
    method: 'POST',
    body: new FormData(form),
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  });
  const data = await response.json().catch(() => null);
  if (!response.ok || !data || typeof data.yaml !== 'string') {
    showProblem(data?.error?.message ?? `${form.dataset.failed} (HTTP ${response.status})`);
    return;
  }
  editor.value = data.yaml;
  editor.dispatchEvent(new Event('mapping:replaced'));
  document.getElementById('suggestion-summary').textContent = data.summary;
  document.getElementById('suggestion').hidden = false;
  adoptSample(data.sample?.id, data.sample?.name);
  await refreshPreview();
}

/** Put the cursor on line `line`, column `column` (1-based) of the editor and scroll there. */
function goTo(line, column) {
  const moved = !editor.dispatchEvent(new CustomEvent('mapping:goto', { detail: { line, column }, cancelable: true }));
  if (moved) return;
  const lines = editor.value.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i += 1) offset += lines[i].length + 1;
  offset = Math.min(editor.value.length, offset + Math.max(0, column - 1));
  editor.focus();
  editor.setSelectionRange(offset, offset);
  const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 18;
  editor.scrollTop = Math.max(0, (line - 4) * lineHeight);
}

if (form && editor) {
  editor.addEventListener('input', soon);
  sampleSelect.addEventListener('change', () => refreshPreview());
  upload.addEventListener('change', () => refreshPreview());
  document.getElementById('preview-button').addEventListener('click', (event) => {
    event.preventDefault();
    refreshPreview();
  });
  document.getElementById('suggest-button').addEventListener('click', (event) => {
    event.preventDefault();
    suggest().catch((error) => showProblem(error.message));
  });
  document.addEventListener('click', (event) => {
    const row = event.target.closest?.('#preview tr[data-line]');
    if (row) goTo(Number(row.dataset.line), Number(row.dataset.column || 1));
  });
  document.documentElement.dataset.studio = 'ready';
}
