import { andMore } from '../code/wording.js';
import type { ExcludedEntry } from '../bundle/left-out.js';
import { leftOutCause, leftOutData } from './left-out-cause.js';
import { defineRule } from './rule.js';

type Data = { reference: string; resolved?: string; sameLetters?: string; escapes?: boolean; more?: number; leftOut?: ExcludedEntry };

export default defineRule<Data>({
  id: 'reference-missing',
  severity: 'error',
  description:
    'A `src`, `href`, `srcset`, `poster` or CSS `url()`/`@import` names a file that is not in the bundle, differs in letter case, or climbs out of it with `..`.',
  why: 'The file fails to load inside the host; names are case-sensitive there.',
  fix: 'Add the file or correct the path (relative to the file that refers to it).',
  message: (data) => {
    const more = andMore(data);
    if (data.escapes) return `"${data.reference}" climbs out of the bundle with ..; everything the tool loads must be inside it. Copy the file into the bundle and refer to it from there.${more}`;
    if (data.leftOut) {
      // Inside a folder pack leaves out (and never walks), the file may or may not be there.
      const where = data.leftOut.path.endsWith('/') ? `, inside ${data.leftOut.path}, which does not ship` : ', which is in the folder but does not ship';
      return `"${data.reference}" refers to ${data.resolved}${where}: ${leftOutCause(data.leftOut)}${more}`;
    }
    if (data.sameLetters) return `"${data.reference}" refers to ${data.resolved}, but the bundle has ${data.sameLetters}; names are case-sensitive on the platform. Make the letter case match.${more}`;
    return `"${data.reference}" refers to ${data.resolved}, which is not in the bundle, so it fails to load. Add the file, or correct the path (it is relative to the folder of the file that refers to it).${more}`;
  },
  // Found by the content scanners; a file that the folder has but leaves out gets its real cause.
  check: ({ collected, excluded }) =>
    collected
      .filter((finding) => finding.ruleId === 'reference-missing')
      .map(({ file, line, column, data }) => {
        const found = data as Data;
        return { file, line, column, data: found.resolved === undefined ? found : { ...found, ...leftOutData(excluded, found.resolved) } };
      }),
});
