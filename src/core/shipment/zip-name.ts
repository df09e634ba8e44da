import { isWindowsDeviceName } from '../paths.js';

/**
 * The most of a short name or a version a zip's name keeps: 64 code points, and never more than
 * 120 bytes of UTF-8, so that `<short>-<version>_.zip` stays under the 255 bytes a file name may
 * take on every common file system, whatever script the name is written in (64 letters such as
 * `𝒜` are 256 bytes).
 */
const MAX_NAME_PART = 64;
const MAX_NAME_PART_BYTES = 120;

/**
 * A piece of a file name that is safe on Windows, macOS and Linux. Letters and digits of every
 * script are kept (in Unicode NFC, so `Café` is the same name however it was typed), as are `.`,
 * `_` and `-`; every run of anything else (spaces, punctuation, symbols, the characters Windows
 * forbids, `< > : " / \ | ? *`, control and invisible formatting characters) becomes one `-`.
 * No leading dot or dash (a hidden file, something that reads like a flag) and no trailing dot
 * (Windows drops it).
 */
export function safeFileName(text: string): string {
  const kept: string[] = [];
  let bytes = 0;
  for (const character of text
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '-')
    .replace(/^[.-]+/, '')
    .replace(/[.-]+$/, '')) {
    bytes += Buffer.byteLength(character);
    if (kept.length === MAX_NAME_PART || bytes > MAX_NAME_PART_BYTES) break;
    kept.push(character);
  }
  return kept.join('').replace(/[.-]+$/, '');
}

/**
 * `<shortName>-<version>.zip`, the name in lower case (as web-ext, npm and vsce name what they
 * pack), made safe for every file system (see {@link safeFileName}): `Kitchen Estimator` 1.2.0
 * gives `kitchen-estimator-1.2.0.zip`. The version keeps its case, since SemVer pre-release tags
 * differ by case. Without a usable short name and version (the manifest is missing or broken), the
 * folder's name stands in; never empty, never a Windows device name.
 */
export function defaultZipName(shortName: string | undefined, version: string | undefined, folderName: string): string {
  const fallback = safeFileName(folderName.toLowerCase()) || 'tool';
  const short = shortName === undefined ? '' : safeFileName(shortName.toLowerCase());
  const safeVersion = version === undefined ? '' : safeFileName(version);
  const stem = shortName === undefined || safeVersion === '' ? fallback : `${short || fallback}-${safeVersion}`;
  return `${isWindowsDeviceName(stem) ? `${stem}_` : stem}.zip`;
}
