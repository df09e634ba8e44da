import { randomBytes } from 'node:crypto';
import { lstat, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type compareVersions from 'semver/functions/compare.js';
import type incrementVersion from 'semver/functions/inc.js';
import { UsageError } from '../errors.js';
import { describeFileKind, readRegularFile } from '../regular-file.js';
import { scanJson } from '../json/scan-json.js';
import { MANIFEST_PATH } from '../paths.js';
import { defaultZipName } from '../shipment/zip-name.js';
import { isStrictSemver, suggestSemver, tooLargeNumber, tooLargeWords } from '../rules/manifest-version.js';
import { shownPath } from '../shown-path.js';

const require = createRequire(import.meta.url);
const semver = {
  compare: require('semver/functions/compare.js') as typeof compareVersions,
  inc: require('semver/functions/inc.js') as typeof incrementVersion,
};

export const RELEASE_TYPES = ['major', 'minor', 'patch'] as const;
export type ReleaseType = (typeof RELEASE_TYPES)[number];

/** The largest file either JSON file may be; a manifest is capped far lower by validate. */
const MAX_JSON_BYTES = 1_000_000;

export interface VersionChange {
  /** Absolute path of the file changed. */
  file: string;
  from: string;
  to: string;
}

export interface BumpOptions {
  /** Allow a version lower than (or equal to) the current one. */
  force?: boolean;
  /** Resolves a relative folder. Default: process.cwd(). */
  cwd?: string;
}

export interface BumpResult {
  /** The tool folder, absolute. */
  folder: string;
  manifest: VersionChange;
  /** The project's package.json, when it was found and holds a version. */
  packageJson?: VersionChange;
  /** The project's package.json scripts (empty without one), to say what to run next. */
  scripts: Record<string, string>;
  /** The name `pack` now gives the zip. */
  zipName: string;
}

/**
 * The version after `release`: one of major, minor, patch (from the current version), or an
 * explicit strict SemVer version. Never lower than or equal to the current one unless `force`.
 */
export function nextVersion(current: string | undefined, release: string, force = false): string {
  const isType = (RELEASE_TYPES as readonly string[]).includes(release);
  const releaseTooLarge = isType ? undefined : tooLargeNumber(release);
  if (releaseTooLarge) throw new UsageError(`"${release}" cannot be a release: ${tooLargeWords(releaseTooLarge)}.`);
  if (!isType && !isStrictSemver(release)) {
    const suggestion = /\d/.test(release) ? suggestSemver(release) : undefined;
    throw new UsageError(`"${release}" is not a release: give major, minor or patch, or a SemVer version like 1.2.0${suggestion ? `; did you mean ${suggestion}?` : '.'}`);
  }
  const usable = current !== undefined && isStrictSemver(current);
  if (isType) {
    if (!usable) {
      const currentTooLarge = current === undefined ? undefined : tooLargeNumber(current);
      const why = current === undefined ? 'is missing' : currentTooLarge ? `"${current}" has a number too large to raise (${tooLargeWords(currentTooLarge)})` : `"${current}" is not SemVer`;
      throw new UsageError(`the manifest's version ${why}, so it cannot be raised by a ${release}; give the new version itself, like 1.0.0.`);
    }
    return semver.inc(current, release as ReleaseType)!;
  }
  if (usable && !force && semver.compare(release, current) <= 0) {
    const relation = semver.compare(release, current) === 0 ? 'is the current version' : `is lower than the current ${current}`;
    throw new UsageError(`${release} ${relation}; a release must be higher. Add --force to set it anyway.`);
  }
  return release;
}

/**
 * Raises the version in a tool folder's manifest.json, and in the project's package.json when
 * there is one with a version. Both files are read and checked before either is written; each is
 * replaced in one step, changed only in the version's value (formatting and key order stay).
 */
export async function bumpVersion(folder: string, release: string, options: BumpOptions = {}): Promise<BumpResult> {
  const cwd = options.cwd ?? process.cwd();
  const show = (file: string) => shownPath(file, cwd);
  const root = path.resolve(cwd, folder);
  const manifestFile = path.join(root, MANIFEST_PATH);
  await requireManifest(root, folder, manifestFile, show);
  const manifest = await readJsonObject(manifestFile, MANIFEST_PATH, show);
  const current = typeof manifest.value['version'] === 'string' ? manifest.value['version'] : undefined;
  if (current === undefined && manifest.value['version'] !== undefined) {
    throw new UsageError(`"version" in ${show(manifestFile)} is not a string; write it as "version": "1.0.0".`);
  }
  const next = nextVersion(current, release, options.force ?? false);
  // An explicit version could be added, but where in the file is the author's choice to make.
  if (current === undefined) throw new UsageError(`${show(manifestFile)} has no "version"; add "version": "${next}" to it.`);
  const project = await findProjectPackage(root, show);

  const writes = [{ file: manifestFile, text: replaceVersion(manifest, next) }];
  let packageJson: VersionChange | undefined;
  const packageVersion = project?.json.value['version'];
  if (project && typeof packageVersion === 'string') {
    writes.push({ file: project.file, text: replaceVersion(project.json, next) });
    packageJson = { file: project.file, from: packageVersion, to: next };
  }
  for (const write of writes) await replaceFile(write.file, write.text, show);

  const shortName = typeof manifest.value['shortName'] === 'string' ? manifest.value['shortName'].trim() : undefined;
  return {
    folder: root,
    manifest: { file: manifestFile, from: current, to: next },
    ...(packageJson ? { packageJson } : {}),
    scripts: project ? scriptsOf(project.json.value) : {},
    zipName: defaultZipName(shortName, next, path.basename(root)),
  };
}

async function requireManifest(root: string, given: string, manifestFile: string, show: (file: string) => string): Promise<void> {
  const folder = await stat(root).catch(() => undefined);
  if (!folder?.isDirectory()) throw new UsageError(`${given} is not a folder. Give the tool folder, the one holding manifest.json.`);
  const info = await lstat(manifestFile).catch(() => undefined);
  if (info?.isSymbolicLink()) throw new UsageError(`${show(manifestFile)} is a symbolic link, which pack leaves out of the bundle; make it a plain file.`);
  if (info?.isFile()) return;
  if (info !== undefined) throw new UsageError(`${show(manifestFile)} is ${describeFileKind(info)}, not a regular file; make it a plain JSON file.`);
  const inside = await lstat(path.join(root, 'src', MANIFEST_PATH)).catch(() => undefined);
  throw new UsageError(
    `${given} has no manifest.json.` + (inside?.isFile() ? ` The tool seems to be in ${path.join(given, 'src')}: pipeline-tool version <release> ${path.join(given, 'src')}` : ' Give the tool folder, the one holding manifest.json.'),
  );
}

interface JsonFile {
  text: string;
  value: Record<string, unknown>;
  /** Where the top-level "version" key starts, after any byte-order mark. */
  versionAt: number | undefined;
}

async function readJsonObject(file: string, label: string, show: (file: string) => string): Promise<JsonFile> {
  const shown = show(file);
  const bytes = await readRegularFile(file, { maxBytes: MAX_JSON_BYTES + 1 }).catch((error: Error) => {
    throw error instanceof UsageError ? error : new UsageError(`cannot read ${shown}: ${error.message}`);
  });
  if (bytes.length > MAX_JSON_BYTES) throw new UsageError(`${shown} is larger than ${MAX_JSON_BYTES} bytes; that is not a ${label}.`);
  // A byte-order mark is kept as it was; the scanner and JSON.parse read what follows it.
  const text = bytes.toString('utf8');
  const body = text.replace(/^\uFEFF/, '');
  const scan = scanJson(body);
  if (!scan.ok) throw new UsageError(`${shown} is not valid JSON (${scan.message}); fix it, then run this again.`);
  if (scan.duplicates.some((duplicate) => duplicate.pointer === '/version')) {
    throw new UsageError(`${shown} has "version" more than once; keep one, then run this again.`);
  }
  const value: unknown = JSON.parse(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${shown} is not a JSON object; it cannot hold a version.`);
  return { text, value: value as Record<string, unknown>, versionAt: scan.offsets.get('/version') };
}

/**
 * The project's package.json: in the tool folder itself, or in the folder above it (the layout
 * `init` creates), as long as it names pipeline-tool among its dependencies. A package.json
 * elsewhere up the tree belongs to something else (a monorepo, a home folder) and is left alone.
 */
async function findProjectPackage(root: string, show: (file: string) => string): Promise<{ file: string; json: JsonFile } | undefined> {
  for (const folder of [root, path.dirname(root)]) {
    const file = path.join(folder, 'package.json');
    const info = await lstat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const json = await readJsonObject(file, 'package.json', show);
    const uses = ['dependencies', 'devDependencies'].some((field) => {
      const list = json.value[field];
      return typeof list === 'object' && list !== null && 'pipeline-tool' in list;
    });
    if (uses) return { file, json };
  }
  return undefined;
}

function scriptsOf(json: Record<string, unknown>): Record<string, string> {
  const scripts = json['scripts'];
  if (typeof scripts !== 'object' || scripts === null) return {};
  return Object.fromEntries(Object.entries(scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The text with the top-level "version" value replaced, and nothing else touched. */
function replaceVersion({ text, versionAt: keyAt }: JsonFile, next: string): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  // The scanner records a member at its key; its value is the string after the colon.
  if (keyAt === undefined) throw new Error('the version was read but not located');
  const match = /^"version"\s*:\s*"(?:[^"\\]|\\.)*"/.exec(body.slice(keyAt));
  if (!match) throw new UsageError('the "version" key is written with escapes; write it plainly as "version".');
  const start = keyAt + match[0].indexOf(':');
  const valueAt = body.indexOf('"', start);
  return bom + body.slice(0, valueAt) + JSON.stringify(next) + body.slice(keyAt + match[0].length);
}

/** Writes beside the file and renames over it: the file is either the old or the new text. */
async function replaceFile(file: string, text: string, show: (file: string) => string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const { mode } = await stat(file);
    await writeFile(temp, text, { flag: 'wx', mode });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new UsageError(`cannot write ${show(file)}: ${(error as Error).message}`);
  }
}
