import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

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
});
