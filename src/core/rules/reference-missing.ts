import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reference: string; resolved?: string; sameLetters?: string; escapes?: boolean; more?: number }>({
  id: 'reference-missing',
  severity: 'error',
  description:
    'A `src`, `href`, `srcset`, `poster` or CSS `url()`/`@import` names a file that is not in the bundle, differs in letter case, or climbs out of it with `..`.',
  why: 'The file fails to load inside the host; names are case-sensitive there.',
  fix: 'Add the file or correct the path (relative to the file that refers to it).',
  message: (data) => {
    const more = andMore(data);
    if (data.escapes) return `"${data.reference}" climbs out of the bundle with ..; everything the tool loads must be inside it. Copy the file into the bundle and refer to it from there.${more}`;
    if (data.sameLetters) return `"${data.reference}" refers to ${data.resolved}, but the bundle has ${data.sameLetters}; names are case-sensitive on the platform. Make the letter case match.${more}`;
    return `"${data.reference}" refers to ${data.resolved}, which is not in the bundle, so it fails to load. Add the file, or correct the path (it is relative to the folder of the file that refers to it).${more}`;
  },
});
