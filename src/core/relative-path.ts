import path from 'node:path';

/**
 * True when `relative`, a path as `path.relative` gives it (its separators may have been turned
 * into `/`), leads out of the folder it is relative to: `..`, a path under `..`, or one on another
 * root or drive. A name that only begins with two dots, such as a folder called `..cache`, stays
 * inside.
 */
export function leavesFolder(relative: string): boolean {
  return relative === '..' || relative.startsWith('../') || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}
