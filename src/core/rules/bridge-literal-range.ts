import { bridgeCall } from '../code/bridge-calls.js';
import { P_COMMA, P_LBRACKET, P_RBRACKET, P_SPREAD } from '../code/js-lexer.js';
import { K_END, K_PUNCT, TAG_QUOTES_ADD_LINES, TAG_QUOTES_CREATE, type JsDetector, type JsRuleContext, type Property } from '../code/js-rule.js';
import { andMore } from '../code/wording.js';
import { W } from '../code/words.js';
import { defineCollectedRule } from './rule.js';

const ID = 'bridge-literal-range';
const MAX_LINES = 200;

/** Tags the `(` of quotes.create / quotes.addLines, so that literals inside know whose they are. */
export function tagQuotesCall(context: JsRuleContext, qualified: string): void {
  if (qualified === 'quotes.create') context.tagCall(TAG_QUOTES_CREATE);
  else if (qualified === 'quotes.addLines') context.tagCall(TAG_QUOTES_ADD_LINES);
}

/**
 * A literal written whole in the argument of quotes.create or quotes.addLines that the platform
 * rejects (`qty: 0`, `taxRate: 15` in create, `discountPercent: 150`, `lines: []` or more than 200
 * lines), and `discountPercent` out of range in an object shaped like an add-line record.
 */
const js: JsDetector = {
  chainWords: ['pipeline'],
  propertyWords: ['qty', 'unitPrice', 'taxRate', 'discountPercent', 'lines'],
  create: (context) => ({
    chain(chain) {
      const call = bridgeCall(chain);
      if (call) tagQuotesCall(context, call.qualified);
    },
    property(property) {
      if (property.key === W.lines) {
        if (property.contextTag === TAG_QUOTES_CREATE) countLines(context, property);
        return;
      }
      let value: number | undefined;
      context.readLiteral((literal) => {
        if (literal?.kind === 'number' && !Number.isNaN(literal.value)) value = literal.value;
        if (value !== undefined && inCall(property)) check(context, property, value);
      });
      if (!inCall(property) && property.key === W.discountPercent) {
        const record = context.propertyBit(W.qty) | context.propertyBit(W.unitPrice);
        context.onObjectEnd((keys) => value !== undefined && (keys & record) === record && check(context, property, value));
      }
    },
  }),
};

/** The property is inside the argument of quotes.create or quotes.addLines. */
export function inCall(property: Property): boolean {
  return property.contextTag === TAG_QUOTES_CREATE || property.contextTag === TAG_QUOTES_ADD_LINES;
}

function check(context: JsRuleContext, property: Property, value: number): void {
  const key = property.key;
  const at = (method: string, allowed: string, hint?: string) => {
    const data: Record<string, unknown> = { method, field: key === W.qty ? 'qty' : key === W.unitPrice ? 'unitPrice' : key === W.taxRate ? 'taxRate' : 'discountPercent', value, allowed };
    if (hint) data.hint = hint;
    context.report(ID, property.line, property.column, data);
  };
  if (property.contextTag === TAG_QUOTES_CREATE) {
    if (key === W.qty && (value <= 0 || value > 10_000)) at('quotes.create', 'greater than 0 and at most 10000');
    else if (key === W.unitPrice && (value < 0 || value > 1_000_000)) at('quotes.create', 'from 0 to 1000000');
    else if (key === W.taxRate && value > 1) at('quotes.create', 'a fraction from 0 to 1', 'percentage');
    else if (key === W.taxRate && value < 0) at('quotes.create', 'a fraction from 0 to 1');
    return;
  }
  if (key === W.qty && value <= 0) at('quotes.addLines', 'greater than 0');
  else if (key === W.unitPrice && value < 0) at('quotes.addLines', '0 or more');
  else if (key === W.taxRate && value < 0) at('quotes.addLines', '0 or more');
  else if (key === W.taxRate && value > 100) at('quotes.addLines', 'a percentage up to 100 or a fraction from 0 to 1', 'over-100');
  else if (key === W.discountPercent && (value < 0 || value > 100)) at('quotes.addLines', 'from 0 to 100');
}

/** `lines: [ … ]` in quotes.create: counts the items of the array literal. */
function countLines(context: JsRuleContext, property: Property): void {
  let started = false;
  let depth = -1;
  let count = 0;
  let item = false;
  let spread = false;
  context.watch((token) => {
    if (!started) {
      started = true; // the `:`
      return true;
    }
    if (depth < 0) {
      if (token.kind !== K_PUNCT || token.punct !== P_LBRACKET) return false;
      depth = token.depth;
      return true;
    }
    if (token.kind === K_END || token.depth < depth) return false;
    if (token.depth === depth && token.kind === K_PUNCT) {
      if (token.punct === P_RBRACKET) {
        if (item) count++;
        if (!spread && (count === 0 || count > MAX_LINES)) {
          context.report(ID, property.line, property.column, { method: 'quotes.create', field: 'lines', value: count, allowed: 'from 1 to 200 lines' });
        }
        return false;
      }
      if (token.punct === P_COMMA) {
        count++; // a comma ends an item, or a hole: `[a, , b]` has three
        item = false;
        return true;
      }
      if (token.punct === P_SPREAD) spread = true;
    }
    item = true;
    return true;
  });
}

export default defineCollectedRule<{ method: string; field: string; value: number; allowed: string; hint?: string; more?: number }>({
  id: 'bridge-literal-range',
  severity: 'warning',
  description:
    'A literal the platform rejects: in `quotes.create`, a `lines: […]` literal that is empty or longer than 200, `qty` ≤ 0 or > 10000, `unitPrice` < 0 or > 1000000, `taxRate` > 1 (a percentage where a fraction is expected); in `quotes.addLines`, `qty` ≤ 0, negative `unitPrice` or `taxRate`, `taxRate` > 100 (more than 100%), `discountPercent` outside 0 to 100.',
  why: 'The host rejects the whole call when one value is out of range.',
  fix: 'Use a value in range (`taxRate: 0.15`, not `15`, in `quotes.create`).',
  message: (data) => {
    const more = andMore(data);
    if (data.field === 'lines') {
      return `${data.method} is given ${data.value} lines; it accepts ${data.allowed}, and rejects the whole request otherwise. ${data.value === 0 ? 'Add at least one line.' : 'Split the lines over several quotes, or add the rest with quotes.addLines from a quoting extension.'}${more}`;
    }
    if (data.hint === 'over-100') {
      return `taxRate ${data.value} in ${data.method} means ${data.value}%: above 1 it reads the rate as a percentage. Write 15 or 0.15 for 15%.${more}`;
    }
    if (data.hint === 'percentage') {
      return `taxRate ${data.value} in ${data.method} looks like a percentage, but quotes.create takes a fraction: write ${data.value / 100} for ${data.value}%.${more}`;
    }
    return `${data.field} ${data.value} in ${data.method} is outside what the platform accepts (${data.allowed}), so the request is rejected. Use a value in range.${more}`;
  },
  js,
});
