import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

/** A second end structure: readers that scan from the end of the file meet it first. */
export default defineCollectedRule<{ offset: number; end: number; locator?: boolean; adjacent?: boolean }>({
  id: 'archive-ambiguous-end',
  severity: 'error',
  locked: true,
  description:
    'A second end-of-archive record (in the archive comment, one whose comment holds the real end, or two written back to back), or bytes just before the end record that look like a Zip64 locator: two readers could see two archives.',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ offset, end, locator, adjacent }) =>
    adjacent
      ? `The archive ends with two end-of-archive records back to back, at offsets ${offset} and ${end}. Readers that scan from the end take the second; Python's zipfile then counts the first as part of the directory's bytes and cannot read the archive at all. Build the bundle again, for example with \`pipeline-tool pack\`.`
      : locator
      ? `The 20 bytes before the end-of-archive record (offset ${offset}) look like a Zip64 locator, though the archive is not Zip64 (an entry's comment or other data ends there). Python's zipfile and yauzl take them for one and fail. Build the bundle again without comments, for example with \`pipeline-tool pack\`.`
      : `Besides the end-of-archive record at offset ${end}, another end-of-archive signature sits at offset ${offset}${offset > end ? ', inside the archive comment' : ''}. Readers that scan from the end of the file can take either, and then list different entries. Build the bundle again without an archive comment, for example with \`pipeline-tool pack\`.`,
});
