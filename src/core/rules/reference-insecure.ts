import { andMore } from '../code/wording.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ reference: string; kind: string; more?: number }>({
  id: 'reference-insecure',
  severity: 'error',
  description:
    'A reference uses `http:`; the https host blocks it as mixed content. Links (`<a href>`) count too: the sandboxed frame cannot open an http page either.',
  why: 'The host is served over https and blocks http content as mixed content.',
  fix: 'Bundle the file, or use `https:`.',
  message: (data) =>
    `"${data.reference}" uses http:, and the platform is served over https, so the browser blocks it as mixed content. Put the file in the bundle and refer to it by a relative path, or use https:.${andMore(data)}`,
});
