import { showName } from '../format-bytes.js';
import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ cp437: string }>({
  id: 'path-utf8-flag',
  severity: 'warning',
  description: 'A non-ASCII name is stored without the zip UTF-8 flag, so readers may decode it differently.',
  why: 'Without the flag, unzip tools may read the name in an old code page and mangle it.',
  fix: 'Pack with pipeline-tool pack, which sets the flag.',
  message: ({ cp437 }) =>
    `This non-ASCII name lacks the zip UTF-8 flag; readers that follow the format will see "${showName(cp437)}". Pack with \`pipeline-tool pack\`, which sets the flag, or use ASCII names.`,
});
