import { formatBytes, showName } from '../format-bytes.js';
import { defineRule } from './rule.js';

/** 50 MB read as 50,000,000 bytes: the stricter of the two readings (decisions.md). */
export const MAX_UNPACKED_BYTES = 50_000_000;

type Largest = { path: string; bytes: number; declared?: boolean };

export default defineRule<{ size: number; limit: number; complete: boolean; unread: number; largest: Largest[] }>({
  id: 'unpacked-size',
  severity: 'error',
  locked: true,
  description:
    'The files inflate to more than 50,000,000 bytes (counted while inflating; only an entry that declares more than the whole limit is judged by its header).',
  why: 'A marketplace limit, and the defence against zip bombs.',
  fix: 'Remove large files the tool does not need.',
  message: ({ size, limit, complete, unread, largest }) =>
    (complete
      ? `The files unpack to ${formatBytes(size)}; the marketplace accepts at most ${formatBytes(limit)} (50 MB read as decimal, the stricter reading). `
      : `The files unpack to more than ${formatBytes(limit)}, the marketplace's limit (50 MB read as decimal); inflating stopped there` +
        (unread > 0 ? `, and ${unread === 1 ? '1 file was' : `${unread} files were`} not checked. ` : '. ')) +
    `Largest files: ${largest.map((f) => `${showName(f.path)} ${formatBytes(f.bytes)}${f.declared ? ' (declared by its header, not inflated)' : ''}`).join(', ')}.`,
  check: ({ content }) => {
    if (content.spent <= MAX_UNPACKED_BYTES) return [];
    const largest = [...content.sizes.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([path, bytes]): Largest => (content.unread.includes(path) ? { path, bytes, declared: true } : { path, bytes }));
    return [{ data: { size: content.spent, limit: MAX_UNPACKED_BYTES, complete: !content.exhausted, unread: content.unread.length, largest } }];
  },
});
