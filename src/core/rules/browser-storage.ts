import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ api: string; more?: number }>({
  id: 'browser-storage',
  severity: 'warning',
  description:
    '`localStorage`, `sessionStorage`, `indexedDB` or `document.cookie` is used; in the sandbox\'s opaque origin they may throw or forget.',
  why: 'The tool runs at an opaque origin, where browser storage may throw or forget everything.',
  fix: 'Keep preferences with `pipeline.settings.get` / `settings.set` (SDK 2.3.0+).',
  message: (data) =>
    `${data.api} is not dependable in the platform's sandboxed frame (its origin is opaque): access may throw and what is stored may vanish. Keep tool preferences with pipeline.settings.get and pipeline.settings.set (SDK 2.3.0 and later).${andMore(data)}`,
});
