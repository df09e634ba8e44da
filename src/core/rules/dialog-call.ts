import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ name: string; more?: number }>({
  id: 'dialog-call',
  severity: 'warning',
  description:
    '`alert()`, `confirm()` or `prompt()` is called (bare, or on `window`/`globalThis`); the sandbox silently ignores them.',
  why: "The platform's sandbox has no allow-modals: the call returns at once and the user never sees the message.",
  fix: 'Show the message in the page: an inline banner or a `<dialog>` element.',
  message: (data) =>
    `${data.name}() does nothing inside the platform's sandboxed frame: no dialog opens${data.name === 'alert' ? '' : ' and the call returns at once'}. Show the message or question in the page itself (an inline banner, or a <dialog> element).${andMore(data)}`,
});
