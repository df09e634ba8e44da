import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ method: string; field: string; value: number; allowed: string; hint?: string; more?: number }>({
  id: 'bridge-literal-range',
  severity: 'warning',
  description: 'A literal value in a quotes.create or quotes.addLines call is outside what the platform accepts (qty, unitPrice, taxRate, discountPercent, more than 200 lines).',
  why: 'The host rejects the whole call when one value is out of range.',
  fix: 'Use a value in range (taxRate 0.15, not 15, in quotes.create).',
  message: (data) => {
    const more = andMore(data);
    if (data.field === 'lines') {
      return `${data.method} is given ${data.value} lines; it accepts ${data.allowed}, and rejects the whole request otherwise. ${data.value === 0 ? 'Add at least one line.' : 'Split the lines over several quotes, or add the rest with quotes.addLines from a quoting extension.'}${more}`;
    }
    if (data.hint === 'percentage') {
      return `taxRate ${data.value} in ${data.method} looks like a percentage, but quotes.create takes a fraction: write ${data.value / 100} for ${data.value}%.${more}`;
    }
    return `${data.field} ${data.value} in ${data.method} is outside what the platform accepts (${data.allowed}), so the request is rejected. Use a value in range.${more}`;
  },
});
