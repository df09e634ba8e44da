import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reference: string; kind: string; more?: number }>({
  id: 'reference-remote',
  severity: 'warning',
  description:
    'A script or stylesheet is loaded from another site (`https:` or `//host/…`). Remote images, fonts and links are not reported.',
  why: "The tool then depends on another site being up and reachable from every customer's network.",
  fix: 'Download it into the bundle.',
  message: (data) =>
    `The ${data.kind === 'script' ? 'script' : 'stylesheet'} "${data.reference}" is loaded from another site each time the tool opens: the tool then depends on that site being up and unchanged, breaks offline, and runs code the marketplace never reviewed. Download it into the bundle and refer to it by a relative path.${andMore(data)}`,
});
