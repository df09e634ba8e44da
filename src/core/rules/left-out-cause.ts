import { leftOutEntry, type ExcludedEntry } from '../shipment/left-out.js';
import { extensionOf } from '../paths.js';
import { fileTypeHint } from './file-type.js';

/**
 * Why a file the tool refers to is not in the bundle although it is in the folder, and the fix,
 * as two sentences for a rule's message: "`.jpeg` is not accepted by the marketplace. Rename it to .jpg."
 */
export function leftOutCause(entry: ExcludedEntry): string {
  const [cause, fix] = causeAndFix(entry);
  return `${cause}. ${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`;
}

function causeAndFix(entry: ExcludedEntry): [string, string] {
  switch (entry.reason) {
    case 'file-type': {
      const extension = entry.detail ?? extensionOf(entry.path);
      return [`${extension ? `\`${extension}\`` : 'a file without an extension'} is not accepted by the marketplace`, fileTypeHint(extension)];
    }
    case 'source-map':
      return ['source maps are not accepted by the marketplace, so pack keeps them out of the zip', 'refer to the built file instead'];
    case 'ignored':
      return [`it matches ${entry.detail ? `"${entry.detail}"` : 'a pattern'} in .pipelineignore`, 'change that pattern, or stop referring to the file'];
    case 'dot-file':
    case 'junk':
      return [`${entry.path.endsWith('/') ? 'its folder' : 'it'} is ${entry.detail ?? 'a hidden file'}, which never ships`, 'rename it'];
    case 'node_modules':
      return ['files inside node_modules never ship', 'bundle the dependency, or copy the file into the tool folder'];
    case 'symlink':
      return ['it is a symbolic link, which pack never follows', 'put the file itself there'];
    case 'not-regular':
      return ['it is not a regular file', 'put a regular file there'];
    case 'project-file':
      return ['it is a project file (package.json, lockfiles, tsconfig), which never ships', 'give the data another name'];
    case 'output-zip':
      return ['it is the zip pack writes', 'refer to the files inside it instead'];
    case 'fixtures':
      return ['it is a fixtures file for `pipeline-tool dev` (its $schema names fixtures.schema.json), which never ships', 'remove that $schema, or keep the data elsewhere'];
  }
}

/** The data a rule adds when the missing file is in the folder but left out: `leftOut`, with its reason. */
export function leftOutData(excluded: readonly ExcludedEntry[], file: string): { leftOut: ExcludedEntry } | Record<string, never> {
  const entry = leftOutEntry(excluded, file);
  return entry ? { leftOut: entry } : {};
}
