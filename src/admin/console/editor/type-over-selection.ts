/**
 * Typing over a selection, done by CodeMirror rather than by the browser. CodeMirror lets the
 * browser edit its contenteditable DOM for plain typing and reads the change back. When the typed
 * text replaces a selection that crosses highlighted tokens, Chromium keeps the look of what it
 * deleted by wrapping the new text in `<span style="color: …">`: an inline style, which the
 * console's CSP (`style-src 'self'`) refuses and reports, once per span. Cancelling that
 * `beforeinput` and making the same change as a transaction leaves the DOM to CodeMirror's
 * renderer. Typing at a cursor, composition (IME) and paste keep CodeMirror's own path.
 */
import { EditorView } from '@codemirror/view';

export const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== 'insertText' || event.data === null || event.isComposing || view.composing) return false;
    if (view.state.selection.ranges.every((range) => range.empty)) return false;
    event.preventDefault();
    const text = event.data;
    const { from, to } = view.state.selection.main;
    const insert = () => view.state.update(view.state.replaceSelection(text), { scrollIntoView: true, userEvent: 'input.type' });
    // The input handlers (closeBrackets wraps a selection in the bracket typed) come first, as for any typing.
    if (!view.state.facet(EditorView.inputHandler).some((handler) => handler(view, from, to, text, insert))) view.dispatch(insert());
    return true;
  },
});
