/**
 * The editor's look, in the console's colours (its CSS variables reach into the editor's shadow
 * root). Two rules are about the CSP rather than taste: @codemirror/lint draws its wavy underline
 * as a `data:` SVG background, which `img-src 'self'` refuses, so the underline is a text
 * decoration here; and the rest is ordinary CodeMirror theming, which style-mod mounts as a
 * constructed stylesheet in the shadow root (see create-editor.ts), not as a `<style>` element.
 */
import { HighlightStyle } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

const MONO = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

const underline = (color: string) => ({
  backgroundImage: 'none',
  textDecoration: `underline wavy ${color}`,
  textDecorationSkipInk: 'none',
  textUnderlineOffset: '3px',
});

export const consoleTheme = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'var(--card, #fff)', color: 'var(--fg, #1d2329)', fontSize: '0.85rem' },
  '&.cm-focused': { outline: '2px solid var(--accent, #1f5fa8)', outlineOffset: '-2px' },
  '.cm-scroller': { fontFamily: MONO, lineHeight: '1.35', overflow: 'auto' },
  '.cm-gutters': { backgroundColor: 'var(--bg, #f6f8fa)', color: 'var(--muted, #6a737d)', borderRight: '1px solid var(--line, #d8dde3)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: '#f0f4f9' },
  '.cm-lintRange-error': underline('var(--bad, #cf222e)'),
  '.cm-lintRange-warning': underline('var(--warn, #9a6700)'),
  '.cm-lintRange-info, .cm-lintRange-hint': underline('var(--muted, #6a737d)'),
  '.cm-tooltip': { border: '1px solid var(--line, #d8dde3)', backgroundColor: 'var(--card, #fff)', borderRadius: '4px', maxWidth: '38rem' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul': { fontFamily: MONO, maxHeight: '16rem' },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--accent, #1f5fa8)', color: '#fff' },
  '.cm-completionDetail': { color: 'var(--muted, #6a737d)', fontStyle: 'normal', marginLeft: '1em' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected] .cm-completionDetail': { color: '#dbe7f5' },
  '.cm-completionInfo': { padding: '0.4rem 0.6rem', maxWidth: '24rem', whiteSpace: 'normal' },
  '.cm-schema-hover': { padding: '0.4rem 0.6rem', fontFamily: 'system-ui, sans-serif', lineHeight: '1.4' },
  '.cm-schema-hover-title': { fontFamily: MONO, fontWeight: 'bold' },
  '.cm-schema-hover-type': { color: 'var(--muted, #6a737d)' },
  '.cm-diagnosticSource': { color: 'var(--muted, #6a737d)' },
});

export const yamlHighlight = HighlightStyle.define([
  { tag: tags.definition(tags.propertyName), color: '#1f5fa8' },
  { tag: tags.string, color: '#116329' },
  { tag: tags.content, color: '#1d2329' },
  { tag: tags.lineComment, color: '#6a737d', fontStyle: 'italic' },
  { tag: [tags.separator, tags.brace, tags.squareBracket, tags.punctuation], color: '#6a737d' },
  { tag: [tags.labelName, tags.typeName, tags.meta, tags.keyword], color: '#8250df' },
  { tag: tags.special(tags.string), color: '#953800' },
]);
