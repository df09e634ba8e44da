import type { LinePosition } from '../problem.js';
import type { Chain, JsRuleContext } from './js-rule.js';
import { END_CALL } from './js-rule.js';
import { W } from './words.js';

/*
 * Reading a member chain as a call of the bridge, for the bridge rules: `pipeline.quotes.create(`,
 * `window.pipeline?.quotes.addLines(`, `globalThis['pipeline'].settings.get(`, or a variable set to
 * part of it (`const q = window.pipeline.quotes; q.addLines(`).
 */

/** How the bridge was reached: through the global object, by its bare name, or through a variable. */
export const ROOT_GLOBAL = 1;
export const ROOT_BARE = 2;
export const ROOT_ALIAS = 3;

export interface BridgeCall {
  namespace: string;
  /** Undefined for a call of the namespace itself (`pipeline.addLines(…)`). */
  method: string | undefined;
  /** `namespace.method`, or the namespace alone. */
  qualified: string;
  root: number;
  /** Names written after the alias, when reached through one. */
  afterAlias: number;
  /** Where the chain starts: where the finding is reported. */
  line: number;
  column: number;
  /**
   * Where the called name is written (the method, or the namespace called itself), where a
   * source map is asked about the finding: a minifier that inlines `const quotes =
   * window.pipeline.quotes` writes `window.pipeline.quotes.addLines(`, whose first word its map
   * places on the alias's line, and the called name on the call's.
   */
  call: LinePosition;
}

/** The bridge call a chain ending in `(` makes, if it is one. */
export function bridgeCall(chain: Chain): BridgeCall | undefined {
  if (!chain.rooted || chain.end !== END_CALL) return undefined;
  const g = chain.globalPrefix();
  if (chain.word(g) !== W.pipeline) return undefined;
  const rest = chain.length - g - 1;
  if (rest < 1 || rest > 2) return undefined;
  const namespace = chain.text(g + 1);
  const method = rest === 2 ? chain.text(g + 2) : undefined;
  return {
    namespace,
    method,
    qualified: method === undefined ? namespace : `${namespace}.${method}`,
    root: chain.aliased ? ROOT_ALIAS : g > 0 ? ROOT_GLOBAL : ROOT_BARE,
    afterAlias: chain.length - chain.aliasLength,
    line: chain.line(0),
    column: chain.column(0),
    call: { line: chain.line(chain.length - 1), column: chain.column(chain.length - 1) },
  };
}

/** Reports a finding on a bridge call: one through a bare `pipeline` is dropped if the script declares its own. */
export function reportBridge(context: JsRuleContext, chain: Chain, call: BridgeCall, ruleId: string, data: Record<string, unknown>): void {
  if (call.root === ROOT_ALIAS) context.report(ruleId, call.line, call.column, data, call.call);
  else context.reportUse(chain.word(0), ruleId, call.line, call.column, data, call.call);
}

/** True when a variable set to this chain stands for the bridge or one of its namespaces. */
export function isBridgeAliasTarget(words: readonly number[]): boolean {
  let g = 0;
  while (g < words.length && (words[g] === W.window || words[g] === W.globalThis || words[g] === W.self || words[g] === W.parent || words[g] === W.top || words[g] === W.frames)) g++;
  return words[g] === W.pipeline && words.length - g <= 2;
}
