import { defineCollectedRule } from './rule.js';

/** A second end record: readers that scan from the end of the file meet it first. */
export default defineCollectedRule<{ offset: number; end: number }>({
  id: 'archive-ambiguous-end',
  severity: 'error',
  locked: true,
  description: 'A second end-of-archive signature (in the archive comment, or one whose comment holds the real end) lets two readers see two archives.',
  message: ({ offset, end }) =>
    `Besides the end-of-archive record at offset ${end}, another end-of-archive signature sits at offset ${offset}${offset > end ? ', inside the archive comment' : ''}. Readers that scan from the end of the file can take either, and then list different entries. Build the bundle again without an archive comment, for example with \`pipeline-tool pack\`.`,
});
