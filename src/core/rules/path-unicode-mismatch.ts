import { showName } from '../format-bytes.js';
import { defineCollectedRule } from './rule.js';

/**
 * An Info-ZIP Unicode Path extra field (0x7075), in the central directory or in the local header,
 * that names the entry otherwise than the central directory does: extractors that read the field
 * and those that do not, or that read local headers and those that read the directory, write two
 * different files. bsdtar takes a local header's field, so it can write over a checked file.
 */
export default defineCollectedRule<{ other: string; crcMatches: boolean; where?: 'central' | 'local' }>({
  id: 'path-unicode-mismatch',
  severity: 'error',
  locked: true,
  description: "An entry's Info-ZIP Unicode Path field, in the central directory or the local header, gives it another name than the central directory does.",
  why: 'Readers that use the Unicode Path field and readers that use the header name, or that read local headers instead of the directory, would write two different files.',
  fix: 'Pack again with pipeline-tool pack, which writes one name per entry.',
  message: ({ other, crcMatches, where }, file) => {
    const name = showName(file ?? '');
    const field = showName(other);
    if (where === 'local') {
      return crcMatches
        ? `The central directory names this entry "${name}" but the Unicode Path field of its local header names it "${field}": extractors that read local headers (bsdtar, streaming readers) write "${field}", possibly over a file that was checked, the others "${name}". Build the bundle again with \`pipeline-tool pack\`, which writes one name.`
        : `A stale Unicode Path field in this entry's local header (its checksum does not match the header's name) names it "${field}": readers that follow the specification ignore it, older ones use it and write another file than "${name}". Build the bundle again with \`pipeline-tool pack\`.`;
    }
    return crcMatches
      ? `The header names this entry "${name}" but its Unicode Path field names it "${field}": extractors that read the field (7-Zip, Info-ZIP unzip, yauzl) write one file, the others another. Build the bundle again with \`pipeline-tool pack\`, which writes one name.`
      : `A stale Unicode Path field (its checksum does not match the header's name) names this entry "${field}": readers that follow the specification ignore it, older ones use it and write another file. Build the bundle again with \`pipeline-tool pack\`.`;
  },
});
