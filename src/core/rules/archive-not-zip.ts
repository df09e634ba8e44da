import type { OtherFormat } from '../bundle/file-format.js';
import { formatBytes } from '../format-bytes.js';
import { defineCollectedRule } from './rule.js';

/** What each format is called, and the file names it usually goes by. */
const FORMATS: Record<OtherFormat, string> = {
  gzip: 'a gzip archive (.gz, as in .tar.gz or .tgz)',
  tar: 'a tar archive (.tar)',
  bzip2: 'a bzip2 archive (.bz2, as in .tar.bz2)',
  xz: 'an xz archive (.xz, as in .tar.xz)',
  zstd: 'a Zstandard archive (.zst)',
  '7z': 'a 7-Zip archive (.7z)',
  rar: 'a RAR archive (.rar)',
};

export default defineCollectedRule<{ size: number; format?: OtherFormat }>({
  id: 'archive-not-zip',
  severity: 'error',
  locked: true,
  description: 'The file is not a zip archive.',
  why: 'The marketplace accepts only zip archives.',
  fix: 'Upload the .zip written by pipeline-tool pack.',
  message: ({ size, format }) =>
    format === undefined
      ? `This file (${formatBytes(size)}) is not a zip archive. Build the bundle with \`pipeline-tool pack\`, or zip the tool's files with any zip tool.`
      : `This file (${formatBytes(size)}) is ${FORMATS[format]}, not a zip archive; the marketplace takes only .zip. Build the bundle with \`pipeline-tool pack\`, or zip the tool's files with any zip tool.`,
});
