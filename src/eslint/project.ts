import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { effectiveToolType } from '../core/code/js-scanner.js';
import { loadProjectConfigSync, settingsResolver, type SettingsResolver } from '../core/config/index.js';
import { MANIFEST_MAX_BYTES, parseManifest } from '../core/manifest/read-manifest.js';
import { MANIFEST_PATH } from '../core/paths.js';
import { shownPath } from '../core/shown-path.js';

/** What linting one file takes from its project: the same project file and manifest validate reads. */
export interface ProjectFacts {
  /** The folder source paths are relative to: the project file's, else the tool folder's. */
  root: string;
  settings: SettingsResolver;
  toolType: { toolType: string | undefined; declared: boolean };
}

/** What was made of a file, kept until the file changes (an editor's ESLint runs for hours). */
interface Kept<T> {
  stamp: string;
  value: T;
}

const configs = new Map<string, Kept<ProjectFacts>>();
const manifests = new Map<string, Kept<ProjectFacts['toolType']>>();

/**
 * The project of a file being linted: the pipeline-tool.config.json found from its folder upward,
 * as validate finds it from the working folder, with its rules and overrides; the tool type from
 * the manifest validate would read, `<source>/manifest.json`. A build's output folder may not be
 * built yet, so a project whose `source` has no manifest takes the one Vite copies there,
 * `public/manifest.json` (what the Vite plugin reads too). Without a project file, the nearest
 * manifest.json from the file's folder upward is the tool's. Throws UsageError for a project file
 * that cannot be used, with validate's message (its path shown from `cwd`).
 */
export function projectOf(file: string, cwd: string): ProjectFacts {
  const folder = path.dirname(file);
  const project = loadProjectConfigSync(folder, (shown) => shownPath(shown, cwd));
  if (!project) {
    const manifest = nearestManifest(folder);
    const root = manifest ? path.dirname(manifest) : folder;
    return { root, settings: settingsResolver({}, []), toolType: manifest ? toolTypeOf(manifest) : { toolType: undefined, declared: false } };
  }
  const stamp = stampOf(project.file);
  const kept = configs.get(project.file);
  const source = path.resolve(project.root, project.config.source ?? '.');
  const manifest = [path.join(source, MANIFEST_PATH), path.join(project.root, 'public', MANIFEST_PATH)].find(isFile);
  const toolType = manifest ? toolTypeOf(manifest) : { toolType: undefined, declared: false };
  if (kept && kept.stamp === stamp) return { ...kept.value, toolType };
  const facts = { root: project.root, settings: settingsResolver(project.config.rules, project.config.overrides), toolType };
  configs.set(project.file, { stamp, value: facts });
  return facts;
}

function toolTypeOf(manifest: string): ProjectFacts['toolType'] {
  const stamp = stampOf(manifest);
  const kept = manifests.get(manifest);
  if (kept && kept.stamp === stamp) return kept.value;
  let bytes: Buffer;
  try {
    bytes = isFile(manifest) ? readFileSync(manifest) : Buffer.alloc(0);
  } catch {
    bytes = Buffer.alloc(0);
  }
  const value = effectiveToolType(parseManifest(bytes.subarray(0, MANIFEST_MAX_BYTES + 1), bytes.length));
  manifests.set(manifest, { stamp, value });
  return value;
}

/** The nearest manifest.json from `folder` upward, no further up than a folder with a package.json. */
function nearestManifest(folder: string): string | undefined {
  for (let at = path.resolve(folder); ; ) {
    const candidate = path.join(at, MANIFEST_PATH);
    if (isFile(candidate)) return candidate;
    const parent = path.dirname(at);
    if (parent === at || isFile(path.join(at, 'package.json'))) return undefined;
    at = parent;
  }
}

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

/** When and how large a file was last written: what tells a kept reading from a stale one. */
function stampOf(file: string): string {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? `${info.mtimeMs}:${info.size}` : '';
}
