import { END_ASSIGN, END_CALL, END_PLUS_ASSIGN, TAG_OBJECT_ASSIGN, type Chain, type JsDetector, type JsRuleContext } from '../code/js-rule.js';
import { andMore } from '../code/wording.js';
import { W } from '../code/words.js';
import { defineCollectedRule } from './rule.js';

const ID = 'unsafe-html';

/** Properties whose value is parsed as HTML. */
const HTML_PROPERTIES = [W.innerHTML, W.outerHTML, W.srcdoc];
/** Methods whose first argument is parsed as HTML. */
const HTML_METHODS = [W.createContextualFragment, W.setHTMLUnsafe];

/**
 * HTML built at run time given to the DOM: `.innerHTML =`, `.outerHTML =`, `iframe.srcdoc =`,
 * `insertAdjacentHTML(pos, html)`, `document.write(…)`, `range.createContextualFragment(html)`,
 * `el.setHTMLUnsafe(html)`, `Object.assign(el, { innerHTML: html })`, and jQuery's
 * `$(…).html(html)` when the bundle ships jQuery. A plain string literal is fine.
 */
const js: JsDetector = {
  chainWords: ['innerHTML', 'outerHTML', 'srcdoc', 'insertAdjacentHTML', 'write', 'writeln', 'createContextualFragment', 'setHTMLUnsafe', 'assign', 'html'],
  propertyWords: ['innerHTML', 'outerHTML'],
  create: (context) => ({
    chain(chain) {
      const last = chain.length - 1;
      const word = chain.word(last);
      const member = last > 0 || !chain.rooted;
      const at = (sink: string) => reporter(context, chain, sink);
      if (chain.end === END_ASSIGN || chain.end === END_PLUS_ASSIGN) {
        if (member && HTML_PROPERTIES.includes(word)) {
          const flag = at(chain.text(last));
          context.readLiteral((value) => value === undefined && flag());
        }
        return;
      }
      if (chain.end !== END_CALL || !member) return;
      if (word === W.insertAdjacentHTML) context.readArguments(1, at('insertAdjacentHTML'));
      else if (HTML_METHODS.includes(word)) context.readArguments(0, at(chain.text(last)));
      else if (word === W.write || word === W.writeln) {
        const g = chain.globalPrefix();
        if (chain.rooted && chain.word(g) === W.document && last === g + 1) context.readArguments(-1, at(`document.${chain.text(last)}`));
      } else if (word === W.assign) {
        if (chain.rooted && last === 1 && chain.word(0) === W.Object) context.tagCall(TAG_OBJECT_ASSIGN);
      } else if (word === W.html && context.bundle.hasJquery && !chain.rooted && (chain.receiver === W.$ || chain.receiver === W.jQuery)) {
        context.readArguments(0, at('$(…).html'));
      }
    },
    property(property) {
      if (property.callTag !== TAG_OBJECT_ASSIGN) return;
      const sink = property.key === W.innerHTML ? 'innerHTML' : 'outerHTML';
      context.readLiteral((value) => value === undefined && context.report(ID, property.line, property.column, { sink }));
    },
  }),
};

/** Reports `sink` later (once its value is read), at the position the chain has now. */
function reporter(context: JsRuleContext, chain: Chain, sink: string): () => void {
  // The position of the sink's name: `el.innerHTML` points at innerHTML, `document.write` at document.
  const i = sink.startsWith('document.') ? 0 : chain.length - 1;
  const line = chain.line(i);
  const column = chain.column(i);
  return () => context.report(ID, line, column, { sink });
}

export default defineCollectedRule<{ sink: string; more?: number }>({
  id: 'unsafe-html',
  severity: 'warning',
  description: 'HTML built at run time is given to the DOM (innerHTML, outerHTML, srcdoc, insertAdjacentHTML, document.write, createContextualFragment, setHTMLUnsafe, or jQuery .html() when jQuery is in the bundle) instead of a plain string literal.',
  why: 'HTML built from data (customer names, notes) can inject markup or script into the tool.',
  fix: 'Set `textContent`, build elements, or escape every interpolated value.',
  message: (data) =>
    `${data.sink} is given HTML built at run time. If any part of it comes from data (customer names, notes, product descriptions), it can inject markup or script. Set textContent, build elements with createElement, or escape every interpolated value (& < > " ').${andMore(data)}`,
  js,
});
