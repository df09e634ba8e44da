import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

/** Sentence ends: . ! or ? followed by space and a capital letter or digit ("e.g. foo" is not one). */
const SENTENCE_END = /[.!?]+["')\]]?\s+(?=[\p{Lu}\p{N}])/gu;

export default defineRule<{ sentences: number }>({
  id: 'manifest-description',
  severity: 'warning',
  description: '"description" is longer than the one sentence the marketplace listing expects.',
  message: ({ sentences }) => `"description" reads as ${sentences} sentences; the listing expects one. Keep the first and move the rest to your tool's help.`,
  check: ({ manifest }) => {
    const text = manifestString(manifest, 'description')?.trim();
    if (!text) return [];
    const sentences = (text.match(SENTENCE_END)?.length ?? 0) + 1;
    return sentences > 1 ? [atManifestKey(manifest, 'description', { sentences })] : [];
  },
});
