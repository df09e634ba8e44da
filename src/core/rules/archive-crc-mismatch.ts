import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ expected: string; actual: string }>({
  id: 'archive-crc-mismatch',
  severity: 'error',
  locked: true,
  description: "An entry's content does not match its CRC-32 checksum.",
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ expected, actual }) =>
    `The content does not match its checksum (header says ${expected}, content gives ${actual}): the file is corrupt or was altered. Build the bundle again.`,
});
