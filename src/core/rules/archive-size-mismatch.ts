import { formatBytes } from '../format-bytes.js';
import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

/** `compressed`: the deflate stream ended before the compressed size the headers declare. */
export default defineCollectedRule<{ declared: number; actual: number; atLeast: boolean; compressed?: boolean }>({
  id: 'archive-size-mismatch',
  severity: 'error',
  locked: true,
  description: "An entry inflates to a different size than its header declares, or its compressed data ends before the size its header declares.",
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ declared, actual, atLeast, compressed }) =>
    compressed
      ? `The entry's compressed data ends after ${formatBytes(actual)} of the ${formatBytes(declared)} its header declares; the ${formatBytes(declared - actual)} after it belong to no file. Extractors that find an entry's end by its compressed data fail on them (bsdtar: "compressed data is wrong size"), or, behind a data descriptor, read them as entries this check never saw. Build the bundle again.`
      : atLeast
        ? `The entry inflates to more than the ${formatBytes(declared)} its header declares (inflation stopped there). Headers that understate sizes are a zip-bomb technique; build the bundle again.`
        : `The entry inflates to ${formatBytes(actual)}, not the ${formatBytes(declared)} its header declares. Build the bundle again.`,
});
