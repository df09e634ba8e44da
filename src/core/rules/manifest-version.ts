// The two functions alone: the package's index loads all of semver, a measurable share of start-up.
import coerce from 'semver/functions/coerce.js';
import parse from 'semver/functions/parse.js';
import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

/** Strict SemVer 2.0: what semver parses, written exactly as it would print it back. */
export function isStrictSemver(value: string): boolean {
  const parsed = parse(value, { loose: false });
  if (!parsed) return false;
  const canonical = parsed.version + (parsed.build.length > 0 ? `+${parsed.build.join('.')}` : '');
  return canonical === value;
}

export default defineRule<{ value: string; suggestion?: string }>({
  id: 'manifest-version',
  severity: 'error',
  description: '"version" is not strict SemVer 2.0 (1.2.0, 1.2.0-beta.1, 1.2.0+build.5).',
  message: ({ value, suggestion }) =>
    `"version" is "${value}", which is not a SemVer version like 1.2.0${suggestion ? `; write "${suggestion}"` : ''}.`,
  check: ({ manifest }) => {
    const value = manifestString(manifest, 'version');
    if (value === undefined || value.trim() === '' || isStrictSemver(value)) return [];
    const coerced = coerce(value.replace(/^\s*[vV=]\s*/, ''), { includePrerelease: true })?.version;
    return [atManifestKey(manifest, 'version', { value, ...(coerced && isStrictSemver(coerced) ? { suggestion: coerced } : {}) })];
  },
});
