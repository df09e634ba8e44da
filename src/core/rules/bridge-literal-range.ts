import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ method: string; field: string; value: number; allowed: string; hint?: string; more?: number }>({
  id: 'bridge-literal-range',
  severity: 'warning',
  description:
    'A literal the platform rejects: in `quotes.create`, a `lines: […]` literal that is empty or longer than 200, `qty` ≤ 0 or > 10000, `unitPrice` < 0 or > 1000000, `taxRate` > 1 (a percentage where a fraction is expected); in `quotes.addLines`, `qty` ≤ 0, negative `unitPrice` or `taxRate`, `discountPercent` outside 0 to 100.',
  why: 'The host rejects the whole call when one value is out of range.',
  fix: 'Use a value in range (`taxRate: 0.15`, not `15`, in `quotes.create`).',
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
