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

/** The largest version number that can be compared exactly: 2^53 − 1, 9007199254740991. */
export const MAX_VERSION_NUMBER = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * SemVer 2.0's grammar with numbers of any length: MAJOR.MINOR.PATCH, a pre-release of dot-separated
 * identifiers (numeric ones without leading zeros), build metadata.
 */
const IDENTIFIER = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
const SEMVER_SHAPE = new RegExp(`^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`);

// semver builds some forty regular expressions as it loads, a measurable share of a `validate`
// run; it is loaded for the other versions only (two functions, not the package's index).
const require = createRequire(import.meta.url);
let semver: { parse: typeof parseVersion; coerce: typeof coerceVersion } | undefined;
const loadSemver = () =>
  (semver ??= {
    parse: require('semver/functions/parse.js') as typeof parseVersion,
    coerce: require('semver/functions/coerce.js') as typeof coerceVersion,
  });

export type VersionPart = 'major' | 'minor' | 'patch' | 'pre-release';

/**
 * In a version written as SemVer, the first number too large to compare exactly: a major, minor
 * or patch number, or a numeric pre-release identifier, above 9007199254740991. Build metadata is
 * never compared, so its numbers may be any size. Undefined when there is none, or the value is
 * not written as SemVer at all.
 */
export function tooLargeNumber(value: string): { part: VersionPart; number: string } | undefined {
  const match = SEMVER_SHAPE.exec(value);
  if (!match) return undefined;
  const parts: [VersionPart, string][] = [
    ['major', match[1]!],
    ['minor', match[2]!],
    ['patch', match[3]!],
    ...(match[4] ?? '')
      .split('.')
      .filter((id) => /^\d+$/.test(id))
      .map((id): [VersionPart, string] => ['pre-release', id]),
  ];
  const found = parts.find(([, n]) => tooLarge(n));
  return found ? { part: found[0], number: found[1] } : undefined;
}

const tooLarge = (digits: string) => digits.length >= 16 && BigInt(digits) > MAX_VERSION_NUMBER;

/** "its patch number 9007199254740993 is too large to compare": the words for {@link tooLargeNumber}. */
export function tooLargeWords({ part, number }: { part: VersionPart; number: string }): string {
  return `its ${part} number ${number} is larger than ${MAX_VERSION_NUMBER}, too large to compare exactly`;
}

/**
 * Strict SemVer 2.0 that can be ordered: what semver parses, written exactly as it would print it
 * back, with no number too large to compare.
 */
export function isStrictSemver(value: string): boolean {
  if (PLAIN_VERSION.test(value)) return true;
  if (tooLargeNumber(value)) return false;
  const parsed = loadSemver().parse(value); // strict unless asked to be loose
  if (!parsed) return false;
  const canonical = parsed.version + (parsed.build.length > 0 ? `+${parsed.build.join('.')}` : '');
  return canonical === value;
}

export default defineRule<{ value: string; suggestion?: string; part?: VersionPart; number?: string }>({
  id: 'manifest-version',
  severity: 'error',
  description: '"version" is not strict SemVer 2.0 (1.2.0, 1.2.0-beta.1, 1.2.0+build.5), or holds a number above 9007199254740991, too large to compare.',
  why: 'The marketplace orders releases by SemVer and refuses other version strings.',
  fix: 'Write a SemVer version such as 1.2.0 (the message suggests one), with every number at most 9007199254740991.',
  message: ({ value, suggestion, part, number }) =>
    part && number
      ? `"version" is "${value}": ${tooLargeWords({ part, number })} (the marketplace orders releases by these numbers). Keep every number in the version at or below ${MAX_VERSION_NUMBER}.`
      : `"version" is "${value}", which is not a SemVer version like 1.2.0${suggestion ? `; write "${suggestion}"` : ''}.`,
  check: ({ manifest }) => {
    const value = manifestString(manifest, 'version');
    if (value === undefined || value.trim() === '' || isStrictSemver(value)) return [];
    // SemVer in form, with a number no comparison can hold exactly: say so, and suggest nothing
    // (semver would read 99999999999999999999.0.0 as 0.0.0).
    const large = tooLargeNumber(value);
    if (large) return [atManifestKey(manifest, 'version', { value, ...large })];
    const suggestion = suggestSemver(value);
    return [atManifestKey(manifest, 'version', { value, ...(suggestion ? { suggestion } : {}) })];
  },
});

/**
 * The strict SemVer version a loosely written one stands for (`v1.2` → `1.2.0`, `2` → `2.0.0`),
 * or undefined when nothing version-like is in it.
 */
export function suggestSemver(value: string): string | undefined {
  // No version is suggested from a value holding a number too large to compare: semver would
  // read such a number as a smaller one, or drop it.
  if ((value.match(/\d+/g) ?? []).some(tooLarge)) return undefined;
  // semver reads nothing from a number written with a leading zero (`01.2.3`), which SemVer
  // forbids outside build metadata; the number it stands for is what the author meant.
  const readable = value.replace(/^\s*[vV=]\s*/, '').replace(/(?<![\dA-Za-z])0+(?=\d)/g, '');
  const coerced = loadSemver().coerce(readable, { includePrerelease: true })?.version;
  return coerced && isStrictSemver(coerced) && coerced !== value ? coerced : undefined;
}
