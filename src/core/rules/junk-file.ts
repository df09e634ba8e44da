import { junkReason } from '../paths.js';
import { defineRule } from './rule.js';

/** Debris that zip tools sweep in from the desktop; named apart from file-type for a clearer hint. */
export default defineRule<{ reason: string }>({
  id: 'junk-file',
  severity: 'error',
  description: 'System or hidden files (__MACOSX/, .DS_Store, Thumbs.db, dot-files) are in the bundle.',
  message: ({ reason }) =>
    `This is a ${reason}, not part of the tool. Delete it, or build the bundle with \`pipeline-tool pack\`, which leaves such files out.`,
  check: ({ source }) =>
    source.entries.flatMap((entry) => {
      const reason = junkReason(entry.path);
      // Inside a junk folder only the folder itself is reported, not each file in it.
      const parentIsJunk = junkReason(entry.path.replace(/[^/]+\/?$/, '')) !== undefined;
      return reason && !parentIsJunk ? [{ file: entry.path, data: { reason } }] : [];
    }),
});
