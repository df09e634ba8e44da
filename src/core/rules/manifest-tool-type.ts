import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { nearestName } from '../nearest.js';
import { defineRule } from './rule.js';

export const TOOL_TYPES = ['standalone', 'quoting_extension'] as const;

export default defineRule<{ value: string; suggestion?: string }>({
  id: 'manifest-tool-type',
  severity: 'error',
  description: '"type" is neither "standalone" nor "quoting_extension".',
  why: 'The type decides where the host opens the tool and which bridge methods it may call.',
  fix: 'Set "type" to "standalone" or "quoting_extension".',
  message: ({ value, suggestion }) =>
    `"type" is "${value}", but must be "standalone" or "quoting_extension"${suggestion ? `; did you mean "${suggestion}"?` : '.'}`,
  check: ({ manifest }) => {
    const value = manifestString(manifest, 'type');
    if (value === undefined || value.trim() === '' || (TOOL_TYPES as readonly string[]).includes(value)) return [];
    const suggestion = nearestName(value.replace(/[- ]/g, '_'), TOOL_TYPES);
    return [atManifestKey(manifest, 'type', { value, ...(suggestion ? { suggestion } : {}) })];
  },
});
