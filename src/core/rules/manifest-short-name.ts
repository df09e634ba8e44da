import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

/** Tab labels truncate beyond about this many characters; the spec sets no hard limit. */
export const SHORT_NAME_ADVISED_LENGTH = 24;

export default defineRule<{ reason: 'too-long' | 'longer-than-name'; length: number; limit: number }>({
  id: 'manifest-short-name',
  severity: 'warning',
  description: `"shortName" is longer than ${SHORT_NAME_ADVISED_LENGTH} characters or longer than "name".`,
  why: 'Tab labels cut anything over 24 characters, and a short name longer than the name defeats its purpose.',
  fix: 'Choose a short name of 24 characters or fewer, shorter than the name.',
  message: ({ reason, length, limit }) =>
    reason === 'too-long'
      ? `"shortName" has ${length} characters; tab labels cut names longer than about ${limit}. Shorten it.`
      : `"shortName" (${length} characters) is longer than "name"; it is meant as the short form. Swap or shorten them.`,
  check: ({ manifest }) => {
    const shortName = manifestString(manifest, 'shortName')?.trim();
    const name = manifestString(manifest, 'name')?.trim();
    if (!shortName) return [];
    const length = [...shortName].length;
    const limit = SHORT_NAME_ADVISED_LENGTH;
    if (length > limit) return [atManifestKey(manifest, 'shortName', { reason: 'too-long' as const, length, limit })];
    if (name && length > [...name].length) return [atManifestKey(manifest, 'shortName', { reason: 'longer-than-name' as const, length, limit })];
    return [];
  },
});
