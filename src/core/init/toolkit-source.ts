import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type validRange from 'semver/ranges/valid.js';
import { UsageError } from '../errors.js';
import { packageRoot, readToolkitVersion } from './assets.js';

const require = createRequire(import.meta.url);

/** Where a new project's `npm install` gets pipeline-tool from: the devDependency's spec. */
export interface ToolkitSource {
  /** What goes into package.json: `^0.1.0`, `file:vendor/pipeline-tool-0.1.0.tgz`, a git URL… */
  spec: string;
  /**
   * `registry`: a version range from the npm registry. `vendored`: a tarball that init places in
   * the project's vendor/ folder, so the project installs anywhere it is copied. `local`: a folder
   * on this machine, linked (`file:`). `other`: a git or tarball URL, passed on as given.
   */
  kind: 'registry' | 'vendored' | 'local' | 'other';
  /** True when the spec names the copy of pipeline-tool that is running. */
  running: boolean;
  /** For `vendored`: where in the project the tarball goes, and what it is made from. */
  vendor?: VendoredToolkit;
}

/** The tarball of pipeline-tool a project carries in vendor/ until it can depend on a published version. */
export interface VendoredToolkit {
  /** Slash-separated path inside the project: `vendor/pipeline-tool-0.1.0.tgz`. */
  path: string;
  /** A folder to pack with `npm pack` (the running copy), or a tarball to copy as it is. */
  from: { folder: string } | { tarball: string };
}

/** The project's folder for the tarball; package.json names it relative to the project, so a copy of the project still finds it. */
export const VENDOR_FOLDER = 'vendor';

/**
 * The file `npm publish` leaves in the package (see scripts/build.mjs --published). It is how a
 * copy tells that it came from the registry: a clone, a linked checkout and a tarball made by
 * `npm pack` do not have it.
 */
export const PUBLISHED_MARK = 'dist/published.json';

/**
 * The running copy of pipeline-tool, as a new project should depend on it. From the registry
 * (it carries the mark of `npm publish` and sits in a node_modules folder): `^<version>`, as any
 * other dependency. Anything else (a clone, `npm link`, a tarball installed with -g): this copy
 * packed into the project's vendor/ folder and named by a path relative to the project, so the
 * project installs even though this version may never have been published, and installs on any
 * machine it is copied to (a link to this folder, or an absolute path, would hold only here).
 */
export function runningToolkitSource(root: string = packageRoot()): ToolkitSource {
  const version = readToolkitVersion();
  const real = realpathSync(root);
  if (isPublishedCopy(real, version)) return { spec: `^${version}`, kind: 'registry', running: true };
  return vendored(`pipeline-tool-${version}.tgz`, { folder: real }, true);
}

function vendored(fileName: string, from: VendoredToolkit['from'], running: boolean): ToolkitSource {
  const inProject = `${VENDOR_FOLDER}/${fileName}`;
  return { spec: `file:${inProject}`, kind: 'vendored', running, vendor: { path: inProject, from } };
}

/** A tarball's name as the project keeps it: its own, when that is a plain file name. */
function vendoredName(tarball: string): string {
  const base = path.basename(tarball);
  return /^[\w.+-]+\.(?:tgz|tar\.gz)$/i.test(base) && !base.startsWith('.') ? base : `pipeline-tool-${readToolkitVersion()}.tgz`;
}

function isPublishedCopy(root: string, version: string): boolean {
  if (!root.split(path.sep).includes('node_modules')) return false;
  try {
    const mark = JSON.parse(readFileSync(path.join(root, PUBLISHED_MARK), 'utf8')) as { version?: unknown };
    // A mark from an older version left in the folder does not count.
    return mark.version === version;
  } catch {
    return false;
  }
}

const REMOTE = /^(?:git\+[a-z]+:|git:|github:|gitlab:|bitbucket:|gist:|https?:)/i;
const DIST_TAG = /^[a-z][a-z0-9._-]*$/i;

/**
 * Reads `--pipeline-tool <spec>`: a version range or dist-tag (from the registry), a path to a
 * pipeline-tool folder (with or without `file:`; relative to `cwd`, linked by an absolute `file:`
 * spec, for working on pipeline-tool itself), a tarball made by `npm pack` (copied into the
 * project's vendor/ folder, so the project installs wherever it is copied), or a git or tarball
 * URL, passed on unchanged for npm to fetch.
 */
export function toolkitSourceFrom(given: string, cwd: string): ToolkitSource {
  const spec = given.trim();
  const explain = 'give a version range (^0.1.0), the path of a pipeline-tool folder or of a .tgz made by npm pack, or a git or tarball URL.';
  if (spec === '' || /\p{Cc}/u.test(spec) || spec.length > 2000) throw new UsageError(`--pipeline-tool ${JSON.stringify(given)} cannot be used: ${explain}`);
  const running = runningRoot();
  if (REMOTE.test(spec)) return { spec, kind: 'other', running: false };
  const isPath = spec.startsWith('file:') || /^(?:\.{1,2}(?:[\\/]|$)|[\\/]|~[\\/]|[a-z]:[\\/])/i.test(spec) || /\.(?:tgz|tar\.gz)$/i.test(spec);
  if (!isPath) {
    const range = (require('semver/ranges/valid.js') as typeof validRange)(spec);
    if (range !== null || DIST_TAG.test(spec)) return { spec, kind: 'registry', running: false };
    throw new UsageError(`--pipeline-tool "${spec}" is not something npm can install pipeline-tool from; ${explain}`);
  }
  const raw = spec.replace(/^file:(?:\/\/(?=\/))?/, '');
  const location = path.resolve(cwd, raw.startsWith('~') ? path.join(process.env['HOME'] ?? '~', raw.slice(1)) : raw);
  if (!existsSync(location)) throw new UsageError(`--pipeline-tool ${spec}: ${location} does not exist; ${explain}`);
  const info = statSync(location);
  if (info.isDirectory()) {
    let name: unknown;
    try {
      name = (JSON.parse(readFileSync(path.join(location, 'package.json'), 'utf8')) as { name?: unknown }).name;
    } catch {
      name = undefined;
    }
    if (name !== 'pipeline-tool') throw new UsageError(`--pipeline-tool ${spec}: ${location} is not a pipeline-tool folder (its package.json does not name pipeline-tool); ${explain}`);
  } else if (!/\.(?:tgz|tar\.gz)$/i.test(location) || !isGzip(location)) {
    throw new UsageError(`--pipeline-tool ${spec}: ${location} is not a .tgz made by npm pack; ${explain}`);
  }
  const real = realpathSync(location);
  if (!info.isDirectory()) return vendored(vendoredName(real), { tarball: real }, false);
  return { spec: `file:${real}`, kind: 'local', running: running !== undefined && real === running };
}

function runningRoot(): string | undefined {
  try {
    return realpathSync(packageRoot());
  } catch {
    return undefined;
  }
}

function isGzip(file: string): boolean {
  const head = Buffer.alloc(2);
  const descriptor = openSync(file, 'r');
  try {
    readSync(descriptor, head, 0, 2, 0);
  } finally {
    closeSync(descriptor);
  }
  return head[0] === 0x1f && head[1] === 0x8b;
}
