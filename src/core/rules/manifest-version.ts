import { createRequire } from 'node:module';
import type coerceVersion from 'semver/functions/coerce.js';
import type parseVersion from 'semver/functions/parse.js';
import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

/**
 * Almost every manifest says MAJOR.MINOR.PATCH, which this settles without semver. Numbers of up
 * to 15 digits stay below Number.MAX_SAFE_INTEGER, past which semver refuses a version.
 */
const PLAIN_VERSION = /^(?:0|[1-9]\d{0,14})\.(?:0|[1-9]\d{0,14})\.(?:0|[1-9]\d{0,14})$/;

// semver builds some forty regular expressions as it loads, a measurable share of a `validate`
// run; it is loaded for the other versions only (two functions, not the package's index).
const require = createRequire(import.meta.url);
let semver: { parse: typeof parseVersion; coerce: typeof coerceVersion } | undefined;
const loadSemver = () =>
  (semver ??= {
    parse: require('semver/functions/parse.js') as typeof parseVersion,
    coerce: require('semver/functions/coerce.js') as typeof coerceVersion,
  });

/** Strict SemVer 2.0: what semver parses, written exactly as it would print it back. */
export function isStrictSemver(value: string): boolean {
  if (PLAIN_VERSION.test(value)) return true;
  const parsed = loadSemver().parse(value); // strict unless asked to be loose
  if (!parsed) return false;
  const canonical = parsed.version + (parsed.build.length > 0 ? `+${parsed.build.join('.')}` : '');
  return canonical === value;
}

export default defineRule<{ value: string; suggestion?: string }>({
  id: 'manifest-version',
  severity: 'error',
  description: '"version" is not strict SemVer 2.0 (1.2.0, 1.2.0-beta.1, 1.2.0+build.5).',
  why: 'The marketplace orders releases by SemVer and refuses other version strings.',
  fix: 'Write a SemVer version such as 1.2.0 (the message suggests one).',
  message: ({ value, suggestion }) =>
    `"version" is "${value}", which is not a SemVer version like 1.2.0${suggestion ? `; write "${suggestion}"` : ''}.`,
  check: ({ manifest }) => {
    const value = manifestString(manifest, 'version');
    if (value === undefined || value.trim() === '' || isStrictSemver(value)) return [];
    const suggestion = suggestSemver(value);
    return [atManifestKey(manifest, 'version', { value, ...(suggestion ? { suggestion } : {}) })];
  },
});

/**
 * The strict SemVer version a loosely written one stands for (`v1.2` → `1.2.0`, `2` → `2.0.0`),
 * or undefined when nothing version-like is in it.
 */
export function suggestSemver(value: string): string | undefined {
  // semver reads nothing from a number written with a leading zero (`01.2.3`), which SemVer
  // forbids outside build metadata; the number it stands for is what the author meant.
  const readable = value.replace(/^\s*[vV=]\s*/, '').replace(/(?<![\dA-Za-z])0+(?=\d)/g, '');
  const coerced = loadSemver().coerce(readable, { includePrerelease: true })?.version;
  return coerced && isStrictSemver(coerced) && coerced !== value ? coerced : undefined;
}
