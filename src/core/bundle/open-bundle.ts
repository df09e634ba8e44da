import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { openFolderSource } from './folder-source.js';
import type { BundleSource } from './source.js';
import { openZipSource } from './zip/zip-source.js';

/** Opens a .zip file or a folder as a bundle; anything else is the caller's mistake. */
export async function openBundle(location: string): Promise<BundleSource> {
  const info = await stat(location).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      error.code === 'ENOENT' ? `${location} does not exist. Give the path of a tool folder or a .zip bundle.` : `cannot read ${location}: ${error.message}`,
    );
  });
  if (info.isDirectory()) return openFolderSource(location);
  if (info.isFile()) return openZipSource(location);
  throw new UsageError(`${location} is neither a file nor a folder. Give the path of a tool folder or a .zip bundle.`);
}
