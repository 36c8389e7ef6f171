/**
 * CodeMirror 6 in place of the mapping page's `<textarea name="yaml">`, which stays in the form
 * (hidden) and keeps the editor's text, so every button posts exactly what it posted before:
 *
 * - each change is copied into the textarea and announced with an `input` event, which
 *   mapping.js listens to (the preview follows a pause in typing);
 * - `mapping:replaced` on the textarea (mapping.js sets its value from Suggest) loads it into the
 *   editor; `mapping:goto` (a click on a problem with a line) moves the cursor, and the editor
 *   cancels the event to say it did;
 * - `mapping:checked` (a new preview, with the text it checked) has the editor read the daemon's
 *   problems from the preview's table and mark them too, while its text is the one checked.
 *
 * The editor lives in a shadow root: CodeMirror's styles (style-mod) then go into a constructed
 * stylesheet adopted by that root instead of a `<style>` element, which the console's CSP
 * (`style-src 'self'`, no 'unsafe-inline', no nonce) refuses. Constructed stylesheets are
 * CSSOM, which CSP does not govern.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from '@codemirror/language';
import { forceLinting, linter, lintKeymap, type Diagnostic } from '@codemirror/lint';
import { Annotation, EditorState, StateEffect } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, hoverTooltip, keymap, lineNumbers, type Tooltip } from '@codemirror/view';
import { placeDaemonProblems, type DaemonProblem } from './daemon-problems.js';
import { describeAt, suggestAt } from './schema-assist.js';
import { createChecker } from './schema-problems.js';
import type { Schema } from './schema-walk.js';
import { consoleTheme, yamlHighlight } from './theme.js';
import { typeOverSelection } from './type-over-selection.js';
import { sayEnglish, type Say } from './words.js';

/** A change that came from the textarea: copied into the editor, not announced back. */
const fromTextarea = Annotation.define<boolean>();
/** A new preview came: the linter runs again (it otherwise runs only when the text changes). */
const daemonChecked = StateEffect.define<null>();

export interface EditorOptions {
  textarea: HTMLTextAreaElement;
  /** The flow kind's mapping schema; null when it could not be had (the YAML is still checked). */
  schema: Schema | null;
  /** The editor's accessible name (the label of the textarea). */
  label: string;
  /** The editor's words, in the console's language (words.ts); English without. */
  say?: Say;
}

export function createEditor({ textarea, schema, label, say = sayEnglish }: EditorOptions): EditorView {
  const host = document.createElement('div');
  host.className = 'yaml-editor';
  textarea.after(host);
  const root = host.attachShadow({ mode: 'open' });

  let checked: Checked = readDaemonProblems(textarea.value);
  const announce = EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    textarea.value = update.state.doc.toString();
    if (!update.transactions.some((tr) => tr.annotation(fromTextarea))) textarea.dispatchEvent(new Event('input', { bubbles: true }));
  });

  const view = new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        EditorState.tabSize.of(2),
        indentUnit.of('  '),
        yaml(),
        syntaxHighlighting(yamlHighlight),
        autocompletion({ override: schema ? [completeFrom(schema, say)] : [], icons: false }),
        linter(
          lintWith(schema, () => checked, say),
          {
            delay: 300,
            needsRefresh: (update) => update.transactions.some((tr) => tr.effects.some((effect) => effect.is(daemonChecked))),
          },
        ),
        ...(schema ? [hoverTooltip(hoverFrom(schema, say))] : []),
        // Tab indents (YAML is indentation); Escape then Tab leaves the editor, as CodeMirror documents.
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap, indentWithTab]),
        EditorView.contentAttributes.of({ 'aria-label': label, spellcheck: 'false', autocorrect: 'off', autocapitalize: 'off' }),
        typeOverSelection,
        consoleTheme,
        announce,
      ],
    }),
  });

  textarea.hidden = true;
  textarea.addEventListener('mapping:replaced', () => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: textarea.value }, annotations: fromTextarea.of(true) });
  });
  textarea.addEventListener('mapping:checked', (event) => {
    checked = readDaemonProblems(String((event as CustomEvent<{ yaml: unknown }>).detail.yaml ?? ''));
    view.dispatch({ effects: daemonChecked.of(null) });
    forceLinting(view);
  });
  textarea.addEventListener('mapping:goto', (event) => {
    const { line, column } = (event as CustomEvent<{ line: number; column: number }>).detail;
    const doc = view.state.doc;
    const target = doc.line(Math.min(Math.max(1, line), doc.lines));
    const pos = Math.min(target.from + Math.max(0, column - 1), target.to);
    view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    view.focus();
    event.preventDefault();
  });
  // The label named the textarea; a click on it now focuses the editor.
  document.querySelector(`label[for="${textarea.id}"]`)?.addEventListener('click', (event) => {
    event.preventDefault();
    view.focus();
  });
  return view;
}

/**
 * Keys and values from the schema, as the word is typed or on Ctrl-Space. On an empty line nothing
 * pops up by itself (a new line is not a question): a key is offered from its first letter.
 */
function completeFrom(schema: Schema, say: Say) {
  return (context: CompletionContext): CompletionResult | null => {
    const found = suggestAt(schema, context.state.doc.toString(), context.pos, say);
    if (found === null) return null;
    if (!context.explicit && found.from === context.pos && found.suggestions[0]?.kind === 'key') return null;
    return {
      from: found.from,
      options: found.suggestions.map((s) => ({
        label: s.label,
        apply: s.apply,
        type: s.kind === 'key' ? 'property' : 'enum',
        detail: s.detail,
        ...(s.info ? { info: s.info } : {}),
      })),
      validFor: /^[^\s{}[\],:#]*$/,
    };
  };
}

/** The daemon's problems of the text last previewed, as the preview's table lists them. */
interface Checked {
  text: string;
  problems: DaemonProblem[];
}

function readDaemonProblems(text: string): Checked {
  const rows = document.querySelectorAll<HTMLTableRowElement>('#preview table.yaml-problems tbody tr');
  const number = (value: string | undefined) => (value ? Number(value) : null);
  const problems = [...rows].map((row) => ({
    path: row.dataset.path ?? '',
    line: number(row.dataset.line),
    column: number(row.dataset.column),
    message: row.querySelector('.message')?.textContent?.trim() ?? '',
  }));
  // A form posts CRLF line ends; the editor's text has LF.
  return { text: text.replace(/\r\n?/g, '\n'), problems };
}

const SOURCES = { YAML: 'editor.source.yaml', schema: 'editor.source.schema', daemon: 'editor.source.daemon' } as const;

function lintWith(schema: Schema | null, checked: () => Checked, say: Say) {
  const check = createChecker(schema, say);
  return (view: EditorView): Diagnostic[] => {
    const text = view.state.doc.toString();
    const own = check(text);
    const daemon = checked();
    const all = daemon.text === text ? [...own, ...placeDaemonProblems(text, daemon.problems, own)] : own;
    const length = view.state.doc.length;
    return all.map((problem) => ({
      from: Math.min(problem.from, length),
      to: Math.min(problem.to, length),
      severity: 'error',
      message: problem.message,
      source: say(SOURCES[problem.source]),
    }));
  };
}

/** The schema's word on the key under the pointer: its path, type, default and description (as text, never markup). */
function hoverFrom(schema: Schema, say: Say) {
  return (view: EditorView, pos: number): Tooltip | null => {
    const found = describeAt(schema, view.state.doc.toString(), pos, say);
    if (found === null) return null;
    return {
      pos: found.from,
      end: found.to,
      above: true,
      create: () => {
        const dom = document.createElement('div');
        dom.className = 'cm-schema-hover';
        const line = (className: string, text: string) => {
          const part = document.createElement('div');
          part.className = className;
          part.textContent = text;
          dom.append(part);
        };
        line('cm-schema-hover-title', found.title);
        line('cm-schema-hover-type', found.fallback === undefined ? found.type : say('editor.hover.default', { type: found.type, value: found.fallback }));
        if (found.description) line('cm-schema-hover-description', found.description);
        return { dom };
      },
    };
  };
}
