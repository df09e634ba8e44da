import { defineRule } from './rule.js';

export const MAX_FILES = 200;

export default defineRule<{ count: number; limit: number }>({
  id: 'file-count',
  severity: 'error',
  locked: true,
  description: `The bundle holds more than ${MAX_FILES} files (folders do not count).`,
  why: 'A marketplace limit.',
  fix: 'Combine scripts and stylesheets, or drop files the tool does not use.',
  message: ({ count, limit }) =>
    `The bundle holds ${count} files; the marketplace accepts at most ${limit}. Combine scripts and styles with a bundler, or remove unused assets.`,
  check: ({ files }) => (files.length > MAX_FILES ? [{ data: { count: files.length, limit: MAX_FILES } }] : []),
});
