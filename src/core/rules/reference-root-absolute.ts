import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reference: string; suggestion?: string; more?: number }>({
  id: 'reference-root-absolute',
  severity: 'warning',
  description: 'A reference starts with / (root-absolute); inside the host it points at the host site, not at the bundle.',
  message: (data) =>
    `"${data.reference}" starts with /, which inside the host means the host's own site, not the bundle, so it will not load. ` +
    (data.suggestion ? `Write "${data.suggestion}" instead.` : 'Write the path relative to this file.') +
    andMore(data),
});
