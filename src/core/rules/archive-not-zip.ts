import { formatBytes } from '../format-bytes.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ size: number }>({
  id: 'archive-not-zip',
  severity: 'error',
  locked: true,
  description: 'The file is not a zip archive.',
  why: 'The marketplace accepts only zip archives.',
  fix: 'Upload the .zip written by pipeline-tool pack.',
  message: ({ size }) =>
    `This file (${formatBytes(size)}) is not a zip archive. Build the bundle with \`pipeline-tool pack\`, or zip the tool's files with any zip tool.`,
});
