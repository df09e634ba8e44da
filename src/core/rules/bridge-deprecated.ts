import { bridgeCall, reportBridge } from '../code/bridge-calls.js';
import { isMethod, replacementOf } from '../code/bridge-surface.js';
import { END_ASSIGN, TAG_QUOTES_ADD_LINES, type JsDetector, type JsRuleContext } from '../code/js-rule.js';
import { andMore } from '../code/wording.js';
import { W } from '../code/words.js';
import { defineCollectedRule } from './rule.js';
import { inCall, tagQuotesCall } from './bridge-literal-range.js';

const ID = 'bridge-deprecated';
const COST = { use: "lineType: 'cost'", replacement: "lineType: 'jobcost'" };

/**
 * A deprecated bridge method (`costItems.list`), `lineType: 'cost'` (in an object or assigned), and
 * `productId` on an add-line record: inside `quotes.addLines(…)`, or in an object outside any call
 * that has the `qty` and `unitPrice` of one.
 */
const js: JsDetector = {
  chainWords: ['pipeline', 'lineType'],
  propertyWords: ['lineType', 'productId', 'qty', 'unitPrice'],
  create: (context) => ({
    chain(chain) {
      const call = bridgeCall(chain);
      if (call) {
        tagQuotesCall(context, call.qualified);
        const replacement = call.method !== undefined && isMethod(call.qualified) ? replacementOf(call.qualified) : undefined;
        if (replacement) reportBridge(context, chain, call, ID, { use: call.qualified, replacement });
        return;
      }
      const last = chain.length - 1;
      if (chain.end === END_ASSIGN && chain.word(last) === W.lineType && (last > 0 || !chain.rooted)) {
        whenCost(context, () => context.report(ID, chain.line(last), chain.column(last), COST));
      }
    },
    property(property) {
      if (property.key === W.lineType) whenCost(context, () => context.report(ID, property.line, property.column, COST));
      if (property.key !== W.productId) return;
      const data = { use: 'productId' };
      if (property.contextTag === TAG_QUOTES_ADD_LINES) context.report(ID, property.line, property.column, data);
      else if (!inCall(property)) {
        const record = context.propertyBit(W.qty) | context.propertyBit(W.unitPrice);
        context.onObjectEnd((keys) => (keys & record) === record && context.report(ID, property.line, property.column, data));
      }
    },
  }),
};

function whenCost(context: JsRuleContext, report: () => void): void {
  context.readLiteral((value) => value?.kind === 'string' && value.value === 'cost' && report());
}

export default defineCollectedRule<{ use: string; replacement?: string; more?: number }>({
  id: 'bridge-deprecated',
  severity: 'warning',
  description:
    "A deprecated part of the bridge is used: `costItems.list`, `lineType: 'cost'`, or `productId` on an add-line record.",
  why: 'Deprecated parts of the bridge keep working for now but will be removed.',
  fix: "`jobCostTemplates.list`; `lineType: 'jobcost'`; `linkedItemId` with `lineType: 'product'`.",
  message: (data) => {
    const more = andMore(data);
    if (data.use === 'productId') {
      return `productId on an add-line record is deprecated (kept for tools of SDK 2.1.2 and earlier). Send the product's GUID as linkedItemId with lineType: 'product'.${more}`;
    }
    return `${data.use} is deprecated (still supported, but superseded): use ${data.replacement} instead.${more}`;
  },
  js,
});
