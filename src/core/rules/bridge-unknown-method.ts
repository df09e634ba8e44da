import { bridgeCall, reportBridge, ROOT_ALIAS, ROOT_GLOBAL } from '../code/bridge-calls.js';
import { isDistinctiveMethodName, isMethod, isNamespace, looksLikeNamespace, methodsOf, nearestMethod, PROPERTIES } from '../code/bridge-surface.js';
import type { JsDetector } from '../code/js-rule.js';
import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

/**
 * A call of a bridge method that does not exist. A bare `pipeline` may be some library's own
 * variable, so through it only names that look like the bridge's count; through `window.pipeline`
 * every name does.
 */
const js: JsDetector = {
  chainWords: ['pipeline'],
  create: (context) => ({
    chain(chain) {
      const call = bridgeCall(chain);
      if (!call) return;
      const { namespace, method, qualified } = call;
      const twoParts = method !== undefined;
      if (twoParts && isMethod(qualified)) return;
      // `pipeline.version` is a string: `pipeline.version.split(…)` calls a string's method.
      if (PROPERTIES.includes(namespace)) return;
      // `e(…)` where `e` once held the bridge: minified code reuses names, so this says nothing.
      if (call.root === ROOT_ALIAS && call.afterAlias === 0) return;
      if (call.root !== ROOT_GLOBAL) {
        const bridgeLike = twoParts ? looksLikeNamespace(namespace) : isNamespace(namespace) || isDistinctiveMethodName(namespace);
        if (!bridgeLike) return;
      }
      const suggestion = nearestMethod(qualified);
      const data: Record<string, unknown> = { method: qualified };
      if (suggestion) data.suggestion = suggestion;
      else if (isNamespace(namespace)) data.methods = methodsOf(namespace);
      reportBridge(context, chain, call, 'bridge-unknown-method', data);
    },
  }),
};

export default defineCollectedRule<{ method: string; suggestion?: string; methods?: string[]; more?: number }>({
  id: 'bridge-unknown-method',
  severity: 'error',
  description:
    'A bridge method that does not exist is called (`pipeline.quotes.update`, `pipeline.customer.list`); the message names the nearest real one.',
  why: 'The call fails at run time: the bridge has no such method.',
  fix: 'Call an existing method (the message names the nearest).',
  message: (data) => {
    const hint = data.suggestion
      ? `did you mean pipeline.${data.suggestion}?`
      : data.methods
        ? `${data.method} is a namespace; its methods are ${data.methods.map((m) => `pipeline.${m}`).join(', ')}.`
        : 'see the bridge methods in the platform documentation (section 4.2).';
    return `pipeline.${data.method} does not exist, so the call throws at run time; ${hint}${andMore(data)}`;
  },
  js,
});
