import { END_ARROW, END_KEY, type JsDetector } from '../code/js-rule.js';
import { isGlobalObject } from '../code/js-chain.js';
import { andMore } from '../code/wording.js';
import { W } from '../code/words.js';
import type { LibraryEntry } from '../source-map/compiled-sinks.js';
import { defineCollectedRule } from './rule.js';

const STORAGE = [W.localStorage, W.sessionStorage, W.indexedDB];

/**
 * Any use of `localStorage`, `sessionStorage`, `indexedDB` (bare or on the global object) or
 * `document.cookie`. An object key, a property of another object, a parameter or a variable of the
 * script's own is not; `const { localStorage: ls } = window` is.
 */
const js: JsDetector = {
  chainWords: ['localStorage', 'sessionStorage', 'indexedDB', 'cookie'],
  create: (context) => ({
    chain(chain) {
      if (!chain.rooted || chain.end === END_KEY || chain.end === END_ARROW) return;
      const g = chain.globalPrefix();
      const word = chain.word(g);
      const guard = context.guarded() ? { guarded: true } : {};
      if (STORAGE.includes(word)) {
        context.reportUse(chain.word(0), 'browser-storage', chain.line(0), chain.column(0), { api: chain.text(g), ...guard });
      } else if (word === W.document && chain.word(g + 1) === W.cookie) {
        context.reportUse(chain.word(0), 'browser-storage', chain.line(0), chain.column(0), { api: 'document.cookie', ...guard });
      }
    },
    declarator(declarator) {
      const init = declarator.init;
      if (declarator.key === undefined || !init || !STORAGE.includes(declarator.keyWord) || declarator.name === declarator.key) return;
      if (init.words.every(isGlobalObject)) context.report('browser-storage', declarator.line, declarator.column, { api: declarator.key, ...(context.guarded() ? { guarded: true } : {}) });
    },
  }),
};

/** What turns on a package's storage in the author's code: its finding then says where. */
const ENTRIES: readonly LibraryEntry[] = [
  // defineStore('draft', { ..., persist: true }) (or an options object).
  { package: 'pinia-plugin-persistedstate', at: /^persist\s*:(?!\s*(?:false|undefined|null)\b)/ },
];

export default defineCollectedRule<{ api: string; guarded?: boolean; package?: string; enabledAt?: string; more?: number }>({
  id: 'browser-storage',
  severity: 'warning',
  description:
    '`localStorage`, `sessionStorage`, `indexedDB` or `document.cookie` is used; in the sandbox\'s opaque origin they may throw or forget.',
  why: 'The tool runs at an opaque origin, where browser storage may throw or forget everything.',
  fix: 'Keep preferences with `pipeline.settings.get` / `settings.set` (SDK 2.3.0+); for a library that persists (a store plugin), leave its persistence off or give it a storage adapter over `pipeline.settings`.',
  message: (data) => {
    if (data.package !== undefined) {
      // Library code, and nothing catches the failure: the author chose the package, and maybe turned its storage on.
      const where = data.enabledAt === undefined ? '' : ` (turned on at ${data.enabledAt})`;
      return `${data.package} uses ${data.api} where nothing catches the failure: in the platform's sandboxed frame (its origin is opaque) that access may throw, and what is stored may vanish. Do not turn on ${data.package}'s persistence${where}; if the tool needs what it keeps, give it a storage adapter over pipeline.settings.get and pipeline.settings.set (SDK 2.3.0 and later).${andMore(data)}`;
    }
    if (data.guarded === true) {
      return `${data.api} is used inside try/catch, so the sandbox's refusal cannot break the tool, but in the platform's sandboxed frame (its origin is opaque) what is stored may vanish. Keep tool preferences with pipeline.settings.get and pipeline.settings.set (SDK 2.3.0 and later).${andMore(data)}`;
    }
    return `${data.api} is not dependable in the platform's sandboxed frame (its origin is opaque): access may throw and what is stored may vanish. Keep tool preferences with pipeline.settings.get and pipeline.settings.set (SDK 2.3.0 and later).${andMore(data)}`;
  },
  js,
  entries: ENTRIES,
});
