import { junkReason } from '../paths.js';
import { defineRule } from './rule.js';

/** Debris that zip tools sweep in from the desktop; named apart from file-type for a clearer hint. */
export default defineRule<{ reason: string }>({
  id: 'junk-file',
  severity: 'error',
  description: 'System or hidden files (__MACOSX/, .DS_Store, Thumbs.db, dot-files) are in the bundle.',
  why: 'Hidden and system files are never part of a tool and the marketplace refuses them.',
  fix: 'Pack with pipeline-tool pack, which leaves them out, or delete them.',
  message: ({ reason }) =>
    `This is ${reason}, not part of the tool. Delete it, or build the bundle with \`pipeline-tool pack\`, which leaves such files out.`,
  check: ({ source }) => {
    // Report each junk folder once (__MACOSX/ rather than every file inside it).
    const reported = new Map<string, string>();
    for (const entry of source.entries) {
      const segments = entry.path.split('/');
      for (let i = 0; i < segments.length; i++) {
        const prefix = segments.slice(0, i + 1).join('/');
        const reason = segments[i] ? junkReason(prefix) : undefined;
        if (!reason) continue;
        const root = i < segments.length - 1 ? `${prefix}/` : prefix;
        if (!reported.has(root)) reported.set(root, reason);
        break;
      }
    }
    return [...reported].map(([file, reason]) => ({ file, data: { reason } }));
  },
});
