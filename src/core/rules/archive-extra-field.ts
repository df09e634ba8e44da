import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

/** An extra-field sub-field that claims more bytes than its block holds. */
export default defineCollectedRule<{ where: 'central' | 'local'; id: string; declared: number; available: number }>({
  id: 'archive-extra-field',
  severity: 'error',
  locked: true,
  description: "An entry's extra field holds a sub-field whose declared length runs past the end of the block.",
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ where, id, declared, available }) =>
    `In the entry's ${where === 'central' ? 'central directory record' : 'local header'}, extra field ${id} declares ${declared} bytes where only ${available} remain. Python's zipfile refuses such an entry and other readers skip the rest; build the bundle again.`,
});
