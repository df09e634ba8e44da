import { END_CALL, type JsDetector } from '../code/js-rule.js';
import { andMore } from '../code/wording.js';
import { W } from '../code/words.js';
import { defineCollectedRule } from './rule.js';

const DIALOGS = [W.alert, W.confirm, W.prompt];

/**
 * `alert(…)`, `window.alert(…)` (or `self.`, `top.`, `globalThis.`…), `alert.call(…)`,
 * `alert.apply(…)`, `(0, alert)(…)`, and a dialog passed to be called (`promise.catch(alert)`,
 * `.then(confirm)`). The script's own `alert` (a function, a parameter, an import) is not the
 * browser's; neither is `obj.alert` or a method `alert() {}`.
 */
const js: JsDetector = {
  chainWords: ['alert', 'confirm', 'prompt'],
  create: (context) => ({
    chain(chain) {
      if (!chain.rooted || (chain.end !== END_CALL && !chain.argument)) return;
      const g = chain.globalPrefix();
      const word = chain.word(g);
      if (!DIALOGS.includes(word)) return;
      const rest = chain.length - g - 1;
      if (chain.argument) {
        if (rest === 0) context.reportUse(chain.word(0), 'dialog-call', chain.line(0), chain.column(0), { name: chain.text(g) });
        return;
      }
      const through = chain.word(g + 1);
      if (rest > 1 || (rest === 1 && through !== W.call && through !== W.apply)) return;
      context.reportUse(chain.word(0), 'dialog-call', chain.line(0), chain.column(0), { name: chain.text(g) });
    },
  }),
};

export default defineCollectedRule<{ name: string; more?: number }>({
  id: 'dialog-call',
  severity: 'warning',
  description:
    '`alert()`, `confirm()` or `prompt()` is called (bare, or on `window`/`globalThis`), or passed to be called (`promise.catch(alert)`); the sandbox silently ignores them.',
  why: "The platform's sandbox has no allow-modals: the call returns at once and the user never sees the message.",
  fix: 'Show the message in the page: an inline banner or a `<dialog>` element.',
  message: (data) =>
    `${data.name}() does nothing inside the platform's sandboxed frame: no dialog opens${data.name === 'alert' ? '' : ' and the call returns at once'}. Show the message or question in the page itself (an inline banner, or a <dialog> element).${andMore(data)}`,
  js,
});
