import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { openShippedFolder } from '../shipment/shipment.js';
import type { BundleSource } from '../shipment/source.js';
import { openZipSource } from './zip/zip-source.js';

/**
 * Opens a .zip file or a folder as a bundle; anything else is the caller's mistake. A folder is
 * opened as the zip pack would make of it: the same files, names, bytes and (measured) size, with
 * what it leaves out listed apart.
 */
export function openBundle(location: string): Promise<BundleSource> {
  return open(location, true);
}

/**
 * As openBundle, for a caller that checks the bundle at once: a folder's zip is measured while
 * its files are read, and the source's `sized` settles when its size is known.
 */
export function openBundleToCheck(location: string): Promise<BundleSource> {
  return open(location, 'alongside');
}

/**
 * As openBundleToCheck, for a caller that wants the verdict and no figures (validate without
 * --report): a folder's zip is measured only when it could be larger than the marketplace accepts
 * (see openShippedFolder), so an ordinary folder is not deflated at all.
 */
export function openBundleForVerdict(location: string): Promise<BundleSource> {
  return open(location, 'for-verdict');
}

async function open(location: string, measure: true | 'alongside' | 'for-verdict'): Promise<BundleSource> {
  const info = await stat(location).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      error.code === 'ENOENT' ? `${location} does not exist. Give the path of a tool folder or a .zip bundle.` : `cannot read ${location}: ${error.message}`,
    );
  });
  if (info.isDirectory()) return openShippedFolder(location, { measure });
  if (info.isFile()) return openZipSource(location);
  throw new UsageError(`${location} is neither a file nor a folder. Give the path of a tool folder or a .zip bundle.`);
}
