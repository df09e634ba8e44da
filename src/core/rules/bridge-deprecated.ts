import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

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
});
