import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

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
});
