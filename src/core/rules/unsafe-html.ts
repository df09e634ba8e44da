import { P_COLON, P_LBRACE } from '../code/js-lexer.js';
import { END_ASSIGN, END_CALL, END_PLUS_ASSIGN, K_NAME, K_PUNCT, K_STRING, TAG_OBJECT_ASSIGN, type Chain, type JsDetector, type JsRuleContext } from '../code/js-rule.js';
import { andMore } from '../code/wording.js';
import { W } from '../code/words.js';
import type { CompiledSink } from '../source-map/compiled-sinks.js';
import { defineCollectedRule } from './rule.js';

const ID = 'unsafe-html';

/** Properties whose value is parsed as HTML. */
const HTML_PROPERTIES = [W.innerHTML, W.outerHTML, W.srcdoc];
/** Methods whose first argument is parsed as HTML. */
const HTML_METHODS = [W.createContextualFragment, W.setHTMLUnsafe];

/** Elements whose text is never parsed as markup, whatever `innerHTML` is given. */
const RAW_TEXT = new Set(['style', 'textarea', 'title', 'xmp', 'noscript', 'noembed', 'noframes']);
/** Script types that the browser runs; a `<script>` of another type (`application/json`) holds data. */
const RUN_TYPE = /^(?:|module|(?:text|application)\/(?:x-)?(?:java|ecma)script)$/i;

/**
 * HTML built at run time given to the DOM: `.innerHTML =`, `.outerHTML =`, `iframe.srcdoc =`,
 * `insertAdjacentHTML(pos, html)`, `document.write(…)`, `range.createContextualFragment(html)`,
 * `el.setHTMLUnsafe(html)`, `Object.assign(el, { innerHTML: html })`, and jQuery's
 * `$(…).html(html)` when the bundle ships jQuery. Frameworks write it as props: React's
 * `{ dangerouslySetInnerHTML: { __html: html } }` and Vue's `{ innerHTML: html }` (what `v-html`
 * compiles to) given to a call. A plain string literal is fine, and so is nothing (`null`,
 * `undefined`, `void 0`), which clears. So is any text given to an element whose content is not
 * markup, when the script shows where it came from: `s = document.createElement('style')` (or
 * another raw-text element, or a `<script>` whose `type` is set to data such as
 * `application/json`), then `s.innerHTML = css` while `s` is in scope.
 */
const js: JsDetector = {
  chainWords: ['innerHTML', 'outerHTML', 'srcdoc', 'insertAdjacentHTML', 'write', 'writeln', 'createContextualFragment', 'setHTMLUnsafe', 'assign', 'html', 'createElement', 'type'],
  propertyWords: ['innerHTML', 'outerHTML', 'dangerouslySetInnerHTML'],
  create: (context) => {
    // Variables set to elements made here whose text is not markup (or a <script>, which may become data), by name.
    const elements = new Map<string, { mark: number; raw: boolean }>();
    // The element a chain's one member is of: `s.innerHTML`, `s.type`.
    const elementOf = (chain: Chain) => {
      if (elements.size === 0) return undefined;
      const name = chain.rooted ? (chain.length === 2 ? chain.text(0) : '') : chain.length === 1 ? chain.owner() : '';
      const element = name === '' ? undefined : elements.get(name);
      return element && context.inScope(element.mark) ? element : undefined;
    };
    return {
      chain(chain) {
        const last = chain.length - 1;
        const word = chain.word(last);
        const member = last > 0 || !chain.rooted;
        const at = (sink: string) => reporter(context, chain, sink);
        if (chain.end === END_ASSIGN || chain.end === END_PLUS_ASSIGN) {
          if (member && HTML_PROPERTIES.includes(word)) {
            if (word !== W.srcdoc && elementOf(chain)?.raw) return;
            const flag = at(chain.text(last));
            context.readLiteral((value) => value === undefined && flag());
          } else if (word === W.type && chain.end === END_ASSIGN) {
            const element = elementOf(chain);
            if (element) context.readLiteral((value) => (element.raw = value?.kind === 'string' && !RUN_TYPE.test(value.value.trim())));
          }
          return;
        }
        if (chain.end !== END_CALL || !member) return;
        if (word === W.insertAdjacentHTML) context.readArguments(1, at('insertAdjacentHTML'));
        else if (HTML_METHODS.includes(word)) context.readArguments(0, at(chain.text(last)));
        else if (word === W.write || word === W.writeln) {
          const g = chain.globalPrefix();
          if (chain.rooted && chain.word(g) === W.document && last === g + 1) context.readArguments(-1, at(`document.${chain.text(last)}`));
        } else if (word === W.createElement) {
          const name = chain.assigned();
          const g = chain.globalPrefix();
          if (name === '' || !chain.rooted || chain.word(g) !== W.document || last !== g + 1) return;
          const mark = context.scopeMark(1);
          context.readLiteral((value) => {
            const tag = value?.kind === 'string' ? value.value.toLowerCase() : '';
            if (RAW_TEXT.has(tag) || tag === 'script') elements.set(name, { mark, raw: tag !== 'script' });
            else elements.delete(name);
          });
        } else if (word === W.assign) {
          if (chain.rooted && last === 1 && chain.word(0) === W.Object) context.tagCall(TAG_OBJECT_ASSIGN);
        } else if (word === W.html && context.bundle.hasJquery && !chain.rooted && (chain.receiver === W.$ || chain.receiver === W.jQuery)) {
          context.readArguments(0, at('$(…).html'));
        }
      },
      property(property) {
        if (property.key === W.dangerouslySetInnerHTML) {
          readReactHtml(context, () => context.report(ID, property.line, property.column, { sink: 'dangerouslySetInnerHTML' }));
          return;
        }
        if (property.callTag !== TAG_OBJECT_ASSIGN && !property.argument) return;
        const sink = property.key === W.innerHTML ? 'innerHTML' : 'outerHTML';
        context.readLiteral((value) => value === undefined && context.report(ID, property.line, property.column, { sink }));
      },
    };
  },
};

/**
 * After `dangerouslySetInnerHTML:`, the value: `{ __html: <literal> }` is fine, any other `__html`
 * is HTML built at run time (`bad`), and so is a value that is not an object literal, whose HTML
 * cannot be seen here.
 */
function readReactHtml(context: JsRuleContext, bad: () => void): void {
  let step = 0;
  context.watch((token) => {
    step++;
    if (step === 1) return true; // the `:`
    if (step === 2) {
      if (token.kind === K_PUNCT && token.punct === P_LBRACE) return true;
      if (!(token.kind === K_NAME && (token.word === W.null || token.word === W.undefined))) bad();
      return false;
    }
    // The first key: only `__html` is read, anything else (a spread) is left alone.
    if (step === 3) return (token.kind === K_NAME && token.word === W.__html) || (token.kind === K_STRING && token.stringValue() === '__html');
    // The `:` after it.
    if (token.kind === K_PUNCT && token.punct === P_COLON) context.readLiteral((value) => value === undefined && bad());
    return false;
  });
}

/** Reports `sink` later (once its value is read), at the position the chain has now. */
function reporter(context: JsRuleContext, chain: Chain, sink: string): () => void {
  // The position of the sink's name: `el.innerHTML` points at innerHTML, `document.write` at document.
  const i = sink.startsWith('document.') ? 0 : chain.length - 1;
  const line = chain.line(i);
  const column = chain.column(i);
  return () => context.report(ID, line, column, { sink });
}

/** Where a value given to an HTML sink is safe: a plain string literal, or nothing. */
const SAFE_VALUE = /^(?:'[^'\\\r\n]*'|"[^"\\\r\n]*"|`[^`\\$]*`|null|undefined)\s*\}/;

/**
 * Svelte 5 compiles `{@html value}` to a call of its own html block (renamed by the minifier),
 * whose `innerHTML` write is found in Svelte's code; the author's tag is where the map lands on the value.
 */
const SVELTE_HTML: CompiledSink<{ sink: string }> = {
  framework: /(?:^|\/)node_modules\/svelte\/src\/internal\/client\/dom\/blocks\/html\.js$/,
  sources: /\.svelte$/,
  site: (text, offset) => {
    if (!/\{@html\s+$/.test(text.slice(Math.max(0, offset - 64), offset))) return undefined;
    return SAFE_VALUE.test(text.slice(offset, offset + 4096)) ? undefined : { sink: '{@html}' };
  },
};

export default defineCollectedRule<{ sink: string; more?: number }>({
  id: 'unsafe-html',
  severity: 'warning',
  description:
    "HTML built at run time is given to the DOM (innerHTML, outerHTML, srcdoc, insertAdjacentHTML, document.write, createContextualFragment, setHTMLUnsafe, React's dangerouslySetInnerHTML, Vue's v-html, Svelte's {@html}, or jQuery .html() when jQuery is in the bundle) instead of a plain string literal.",
  why: 'HTML built from data (customer names, notes) can inject markup or script into the tool.',
  fix: 'Set `textContent`, build elements, or escape every interpolated value.',
  message: (data) =>
    `${data.sink} is given HTML built at run time. If any part of it comes from data (customer names, notes, product descriptions), it can inject markup or script. Set textContent, build elements with createElement, or escape every interpolated value (& < > " ').${andMore(data)}`,
  js,
  compiled: [SVELTE_HTML],
});
