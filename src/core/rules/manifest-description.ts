import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

/** Sentence ends: . ! or ? followed by space and a capital letter or digit ("e.g. foo" is not one). */
const SENTENCE_END = /[.!?]+["')\]]?\s+(?=[\p{Lu}\p{N}])/gu;

/** Words a full stop follows without ending the sentence: "e.g. Acme", "Acme Inc. tools", "J. Smith". */
const ABBREVIATION = /(?:^|[\s("'])(?:e\.g|i\.e|etc|vs|approx|incl|inc|ltd|co|corp|llc|pty|mr|mrs|ms|dr|st|no|\p{L})$/iu;

function countSentences(text: string): number {
  let sentences = 1;
  for (const end of text.matchAll(SENTENCE_END)) {
    if (end[0].startsWith('.') && !end[0].startsWith('..') && ABBREVIATION.test(text.slice(0, end.index))) continue;
    sentences++;
  }
  return sentences;
}

export default defineRule<{ sentences: number }>({
  id: 'manifest-description',
  severity: 'warning',
  description: '"description" is longer than the one sentence the marketplace listing expects.',
  why: 'The marketplace listing shows one sentence; more is cut.',
  fix: 'Shorten the description to one sentence.',
  message: ({ sentences }) => `"description" reads as ${sentences} sentences; the listing expects one. Keep the first and move the rest to your tool's help.`,
  check: ({ manifest }) => {
    const text = manifestString(manifest, 'description')?.trim();
    if (!text) return [];
    const sentences = countSentences(text);
    return sentences > 1 ? [atManifestKey(manifest, 'description', { sentences })] : [];
  },
});
