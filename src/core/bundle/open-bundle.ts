import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { DEV_STATE_FOLDER } from '../paths.js';
import { openFolderSource } from './folder-source.js';
import type { BundleSource } from './source.js';
import { openZipSource } from './zip/zip-source.js';

/**
 * Opens a .zip file or a folder as a bundle; anything else is the caller's mistake. In a folder, the
 * dev server's state folder at the root is passed over: it is the tool author's, never shipped.
 */
export async function openBundle(location: string): Promise<BundleSource> {
  const info = await stat(location).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      error.code === 'ENOENT' ? `${location} does not exist. Give the path of a tool folder or a .zip bundle.` : `cannot read ${location}: ${error.message}`,
    );
  });
  if (info.isDirectory()) return openFolderSource(location, { omit: (entryPath) => entryPath === DEV_STATE_FOLDER });
  if (info.isFile()) return openZipSource(location);
  throw new UsageError(`${location} is neither a file nor a folder. Give the path of a tool folder or a .zip bundle.`);
}
