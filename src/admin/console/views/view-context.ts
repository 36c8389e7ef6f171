/**
 * What every view needs besides its data, for one request (`ctx` in a view; built by `viewContext`
 * in `runtime.ts`): the translator, who is signed in, whether actions are on, the flows for the menu.
 */
import type { ConsoleLanguage } from '../../../config/console-schema.js';
import type { Translate } from '../i18n.js';

export interface ViewContext {
  t: Translate;
  language: ConsoleLanguage;
  /** The signed-in operator (its CSRF token goes into every form), or null. */
  session: { actor: string; csrfToken: string } | null;
  /** `console.password` is set, so actions can be offered (they ask for sign-in when needed). */
  actionsOn: boolean;
  flows: readonly string[];
  /** The page's own address (sign-in comes back to it). */
  path: string;
  /** A done action to announce at the top of the page. */
  flash: { action: string; result: string; detail: string | null } | null;
}
