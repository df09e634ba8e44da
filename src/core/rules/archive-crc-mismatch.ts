import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ expected: string; actual: string; where?: 'data descriptor' }>({
  id: 'archive-crc-mismatch',
  severity: 'error',
  locked: true,
  description: "An entry's content does not match its CRC-32 checksum, or its data descriptor gives another checksum.",
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ expected, actual, where }) =>
    where === 'data descriptor'
      ? `The data descriptor after this entry gives the checksum ${actual}, the central directory ${expected}: readers that check one or the other disagree on whether the file is intact. Build the bundle again.`
      : `The content does not match its checksum (header says ${expected}, content gives ${actual}): the file is corrupt or was altered. Build the bundle again.`,
});
