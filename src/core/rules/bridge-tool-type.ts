import { bridgeCall, reportBridge } from '../code/bridge-calls.js';
import { allowedToolTypes, isMethod } from '../code/bridge-surface.js';
import type { JsDetector } from '../code/js-rule.js';
import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

/** A bridge method the manifest's tool type may not call (the manifest's type, or standalone without one). */
const js: JsDetector = {
  chainWords: ['pipeline'],
  create: (context) => ({
    chain(chain) {
      const call = bridgeCall(chain);
      const toolType = context.toolType;
      if (!call || call.method === undefined || toolType === undefined || !isMethod(call.qualified)) return;
      if (allowedToolTypes(call.qualified).includes(toolType as never)) return;
      reportBridge(context, chain, call, 'bridge-tool-type', { method: call.qualified, toolType, declared: context.toolTypeDeclared });
    },
  }),
};

export default defineCollectedRule<{ method: string; toolType: string; declared: boolean; more?: number }>({
  id: 'bridge-tool-type',
  severity: 'error',
  description:
    '`quotes.addLines` or `quotes.addSections` is called in a tool whose manifest `type` is `standalone` (or missing, which the host reads as standalone).',
  why: 'The host rejects these calls from a standalone tool.',
  fix: 'Set `"type": "quoting_extension"`, or use `quotes.create`.',
  message: (data) =>
    `pipeline.${data.method} only works in a quoting_extension, ` +
    (data.declared ? `but manifest.json declares "type": "${data.toolType}"` : 'but manifest.json has no "type", so the host treats the tool as standalone') +
    `; the host rejects the call with an error. Set "type" to "quoting_extension" if the tool is opened from a quote, or use pipeline.quotes.create to make a new quote.${andMore(data)}`,
  js,
});
