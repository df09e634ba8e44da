import path from 'node:path';

/**
 * A path relative to the working folder ("." for the folder itself), or absolute when that reads
 * better (more than two folders up). Every message and report shows paths this way, the JSON of
 * validate and pack included, so a script resolves any of them against the folder it ran in.
 */
export function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  if (relative === '') return '.';
  return path.isAbsolute(relative) || relative.split(path.sep).filter((part) => part === '..').length > 2 ? file : relative;
}
