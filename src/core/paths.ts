/** Facts about bundle paths that several rules and `pack` share. */

/** File types the marketplace accepts (platform spec §4.4), lower case. */
export const ALLOWED_EXTENSIONS: readonly string[] = ['.html', '.css', '.js', '.svg', '.png', '.jpg', '.woff2', '.json'];

export const MANIFEST_PATH = 'manifest.json';

/**
 * Where `pipeline-tool dev` keeps its state (the tool's stored settings) when run in the tool folder.
 * pack, and so validate, leave it out of a folder as a dot-folder; in a zip it is junk like any
 * other dot-folder.
 */
export const DEV_STATE_FOLDER = '.pipeline-tool/';

/** Lower-cased extension including the dot, or '' when the base name has none. */
export function extensionOf(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

export function baseName(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/**
 * Whether a file's type is acceptable once its name loses what trails the extension: spaces or
 * dots (which Windows strips) or everything from a NUL on (where C readers and Python's zipfile
 * cut it): `app.js `, `app.js\0`. The name is then the one thing to fix, and the path rules say so.
 */
export function acceptedOnceTrimmed(path: string): boolean {
  // eslint-disable-next-line no-control-regex
  const trimmed = path.replace(/\u0000.*$/s, '').replace(/[\s.\u0000-\u001f]+$/, '');
  return trimmed !== path && ALLOWED_EXTENSIONS.includes(extensionOf(trimmed));
}

/**
 * Why a path is operating-system or editor debris that never belongs in a bundle, or undefined.
 * Covers macOS resource forks, Finder and Explorer metadata, and any dot-file or dot-folder.
 */
export function junkReason(path: string): string | undefined {
  const segments = path.split('/').filter(Boolean);
  for (const segment of segments) {
    const lower = segment.toLowerCase();
    if (lower === '__macosx') return 'a macOS resource-fork folder';
    if (lower === '.ds_store') return 'macOS Finder metadata';
    if (lower === 'thumbs.db' || lower === 'ehthumbs.db' || lower === 'desktop.ini') return 'Windows Explorer metadata';
    if (segment.startsWith('._')) return 'a macOS resource fork';
    if (segment.startsWith('.') && segment !== '.' && segment !== '..') return 'a hidden file or folder';
  }
  return undefined;
}

/** The root folder listed as an entry of its own, as jar writes it. */
export const ROOT_ENTRY = './';

/** Whether every name starts with "./", as `bsdtar -a -cf x.zip .` writes them. */
export function allDotPrefixed(paths: readonly string[]): boolean {
  return paths.some((p) => p !== ROOT_ENTRY) && paths.every((p) => p.startsWith('./'));
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;

/** Whether Windows keeps `name` for a device, whatever its extension: `CON`, `com1.js` and `lpt\u00b2.zip` cannot be created there. */
export function isWindowsDeviceName(name: string): boolean {
  return WINDOWS_RESERVED.test(name);
}
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/**
 * Why a path could escape or confuse the folder it is extracted into, or undefined when it is safe.
 * The marketplace's extractor is not ours, so names that any common platform rejects are unsafe too.
 */
export function unsafePathReason(path: string): string | undefined {
  if (path.length === 0) return 'the name is empty';
  if (path.includes('\\')) {
    // Windows reads a backslash as a separator, so ..\..\file climbs out there.
    if (path.split(/[\\/]/).includes('..')) return 'it climbs out of the bundle on Windows, which reads \\ as a folder separator (a ..\\ segment)';
    return 'it contains a backslash, which Windows treats as a folder separator';
  }
  if (path.startsWith('/')) return 'it is absolute (starts with /)';
  if (/^[A-Za-z]:/.test(path)) return 'it starts with a drive letter';
  const segments = (path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  for (const segment of segments) {
    if (segment === '..') return 'it climbs out of the bundle (a .. segment)';
    if (segment === '.') return 'it contains a . segment';
    if (segment === '') return 'it contains an empty segment (//)';
    if (WINDOWS_FORBIDDEN.test(segment)) return 'it contains a character Windows forbids in names (< > : " | ? *)';
    if (isWindowsDeviceName(segment)) return `"${segment}" is a reserved device name on Windows`;
    if (/[. ]$/.test(segment)) return 'a name ends with a dot or a space, which Windows strips';
  }
  return undefined;
}

/**
 * Control characters, and invisible characters that can disguise a name (bidirectional overrides
 * can make "evil\u202Egnp.js" display as "evilsj.png").
 */
// eslint-disable-next-line no-control-regex
export const DECEPTIVE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
