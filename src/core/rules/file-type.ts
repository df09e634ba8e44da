import type { Finding } from '../problem.js';
import { acceptedOnceTrimmed, ALLOWED_EXTENSIONS, extensionOf, junkReason } from '../paths.js';
import { defineRule } from './rule.js';

/**
 * For a rule about a file's name: `app.js ` is a bad name, not a bad type, so when the name is
 * accepted once trimmed, this rule's file-type finding for it would only add noise.
 */
export function nameExplainsFileType({ file }: { file?: string | undefined }): ((other: Finding) => boolean) | undefined {
  return file !== undefined && acceptedOnceTrimmed(file) ? (other) => other.ruleId === 'file-type' && other.file === file : undefined;
}

/** How to make a refused type acceptable, by extension. */
const HINTS: Record<string, string> = {
  '.jpeg': 'rename it to .jpg',
  '.map': 'source maps are not accepted; pack the build folder with pipeline-tool pack, which leaves them out (validate still reads them beside the build)',
  '.mjs': 'rename it to .js (a module script works with type="module")',
  '.ts': 'ship the compiled .js instead',
  '.gif': 'convert it to .png',
  '.webp': 'convert it to .png or .jpg',
  '.woff': 'convert it to .woff2',
  '.ttf': 'convert it to .woff2',
  '.otf': 'convert it to .woff2',
  '.txt': 'remove it, or put its text in an .html page',
  '.md': 'remove it; documentation does not ship in the bundle',
};

/** The fix for a file of a refused type ("rename it to .jpg"). */
export function fileTypeHint(extension: string): string {
  return HINTS[extension] ?? 'remove it from the bundle';
}

export default defineRule<{ extension: string }>({
  id: 'file-type',
  severity: 'error',
  locked: true,
  description: `A file's type is not accepted (allowed: ${ALLOWED_EXTENSIONS.join(' ')}).`,
  why: 'The marketplace accepts only the listed types; other files are refused with the whole upload.',
  fix: 'Convert the file to an accepted type (fonts to .woff2, images to .png, .jpg or .svg) or leave it out.',
  message: ({ extension }) => {
    const what = extension ? `Files of type ${extension} are` : 'Files without an extension are';
    const hint = fileTypeHint(extension);
    return `${what} not accepted by the marketplace (allowed: ${ALLOWED_EXTENSIONS.join(' ')}); ${hint}.`;
  },
  check: ({ files }) =>
    files.flatMap((entry) => {
      const extension = extensionOf(entry.path);
      if (ALLOWED_EXTENSIONS.includes(extension) || junkReason(entry.path)) return [];
      return [{ file: entry.path, data: { extension } }];
    }),
});
