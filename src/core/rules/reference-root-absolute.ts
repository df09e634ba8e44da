import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reference: string; suggestion?: string; more?: number }>({
  id: 'reference-root-absolute',
  severity: 'warning',
  description:
    'A reference starts with `/`; inside the host that is the host\'s site, not the bundle.',
  why: "Inside the host a path starting with / points at the host's site, not at the bundle.",
  fix: 'Write it relative (the message gives the path when the file exists).',
  message: (data) =>
    `"${data.reference}" starts with /, which inside the host means the host's own site, not the bundle, so it will not load. ` +
    (data.suggestion ? `Write "${data.suggestion}" instead.` : 'Write the path relative to this file.') +
    andMore(data),
});
