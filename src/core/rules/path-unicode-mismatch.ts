import { showName } from '../format-bytes.js';
import { defineCollectedRule } from './rule.js';

/**
 * An Info-ZIP Unicode Path extra field (0x7075) that names the entry differently from its header:
 * extractors that read the field and those that do not write two different files.
 */
export default defineCollectedRule<{ other: string; crcMatches: boolean }>({
  id: 'path-unicode-mismatch',
  severity: 'error',
  locked: true,
  description: "An entry's Info-ZIP Unicode Path field gives it another name than its header does.",
  why: 'Readers that use the Unicode Path field and readers that use the header name would write two different files.',
  fix: 'Pack again with pipeline-tool pack, which writes one name per entry.',
  message: ({ other, crcMatches }, file) =>
    crcMatches
      ? `The header names this entry "${showName(file ?? '')}" but its Unicode Path field names it "${showName(other)}": extractors that read the field (7-Zip, Info-ZIP unzip, yauzl) write one file, the others another. Build the bundle again with \`pipeline-tool pack\`, which writes one name.`
      : `A stale Unicode Path field (its checksum does not match the header's name) names this entry "${showName(other)}": readers that follow the specification ignore it, older ones use it and write another file. Build the bundle again with \`pipeline-tool pack\`.`,
});
