import path from 'node:path';
import { MAX_MAP_BYTES, createSourcePlacer, type SourcePlacer } from '../core/source-map/source-placer.js';
import { readInside } from '../core/source-map/read-inside.js';
import { readServedFile, type ServedFile } from './served-files.js';
import type { ToolProblem } from './tool-problems.js';

/**
 * Places what goes wrong in the running tool at the author's source, as validate places its
 * findings: through the source maps of the files the tool runs. The maps are read once and kept
 * until `reset`, which the server calls whenever the tool reloads (a rebuild writes new ones).
 */
export interface RuntimePlaces {
  /**
   * `version` names the code of the page that reported it (new at each load and hot update, as the
   * frame reporter says): a framed page's file already read for that version is not asked for again.
   */
  place(problem: ToolProblem, version?: string): Promise<ToolProblem>;
  reset(): void;
}

/** Where the tool's files are read from to place what happens in them. */
export type ToolFiles =
  /** The tool folder dev serves, by its real path. */
  | { folder: string }
  /**
   * The base address of a page framed from another dev server (the folder of the page's address):
   * its files are asked of that server, since what it serves (Vite's transformed modules, with
   * their maps inline) may exist nowhere on disk. `folder` is the folder that server serves at that
   * base (Vite's root), where a map's relative sources are resolved from.
   */
  | {
      server: string;
      folder: string;
      /** The server transforms each source as it serves it (Vite), so places in its files are named as served, not built. */
      modules?: boolean;
    };

/** Source paths are relative to `sourceRoot`, the project's folder; no source outside it is used. */
export function createRuntimePlaces(files: ToolFiles, sourceRoot: string, closing?: AbortSignal): RuntimePlaces {
  const placerFor = 'server' in files ? servedPlacers(new URL(files.server), files.folder, sourceRoot, closing) : folderPlacers(files.folder, sourceRoot, closing);
  const key = 'server' in files && files.modules === true ? 'served' : 'built';
  return {
    async place(problem, version) {
      const file = toolFile(problem.file);
      if (file === undefined || problem.line === null || problem.column === null) return problem;
      const placer = await placerFor.get(file, version);
      // Browsers count columns in UTF-16 code units.
      const source = await placer?.place(file, problem.line, problem.column, 'utf16').catch(() => undefined);
      if (!source) return problem;
      return { ...problem, file: source.file, line: source.line, column: source.column, [key]: { file, line: problem.line, column: problem.column } };
    },
    reset: () => placerFor.reset(),
  };
}

interface Placers {
  /** The placer for one file of the tool, as the page's code of `version` ran it; undefined when the file cannot be read. */
  get(file: string, version?: string): Promise<SourcePlacer | undefined>;
  reset(): void;
}

/** The tool folder's files and maps, read from disk: one placer until the tool reloads. */
function folderPlacers(realRoot: string, sourceRoot: string, closing?: AbortSignal): Placers {
  const fresh = (): SourcePlacer =>
    createSourcePlacer({
      folder: realRoot,
      root: sourceRoot,
      // Dev closing stops a map being decoded.
      ...(closing ? { signal: closing } : {}),
      readBuilt: async (file) => (await readInside(realRoot, path.join(realRoot, ...file.split('/')), MAX_MAP_BYTES))?.toString('utf8'),
    });
  let placer = fresh();
  return {
    get: async () => placer,
    reset() {
      placer = fresh();
    },
  };
}

/** How many served files are kept, with their maps, between reports, and how much of their text at most. */
const KEPT_FILES = 32;
const KEPT_BYTES = 100_000_000;

/**
 * A framed page's files, asked of their server once per version of the page's code: the server
 * reloads the page by itself (a rebuild, a hot update), so a file's text may have changed since
 * the last report without the tool reloading, but not while the page runs the same code. A report
 * of a version already seen is placed with what was read for it, with no request; for a new
 * version (or a report that names none) a server that says which version of the file it sends is
 * asked whether it changed; one placer per file is kept while its text stays the same. Map files
 * are read only where a file's comment names them: nothing is guessed at on another server.
 */
function servedPlacers(base: URL, folder: string, sourceRoot: string, closing?: AbortSignal): Placers {
  const kept = new Map<string, { served: ServedFile; placer: SourcePlacer; version: string | undefined }>();
  const keptBytes = () => [...kept.values()].reduce((sum, { served }) => sum + served.text.length, 0);
  const options = closing ? { signal: closing } : {};
  // Reports that arrive together about one file share one request for it (and its map), instead
  // of each fetching a script of up to 50 MB; keyed by file and version.
  const asking = new Map<string, Promise<SourcePlacer | undefined>>();
  const get = async (file: string, version: string | undefined): Promise<SourcePlacer | undefined> => {
      const before = kept.get(file);
      if (before !== undefined && version !== undefined && before.version === version) return before.placer;
      const served = await readServedFile(base, file, before?.served, options);
      if (served === undefined) {
        kept.delete(file);
        return undefined;
      }
      if (before !== undefined && before.served.text === served.text) {
        before.served = served;
        before.version = version;
        return before.placer;
      }
      const placer = createSourcePlacer({
        folder,
        root: sourceRoot,
        ...(closing ? { signal: closing } : {}),
        readBuilt: async (wanted) => (wanted === file ? served.text : undefined),
        readMap: async (map, named) => (named ? (await readServedFile(base, map, undefined, options))?.text : undefined),
      });
      kept.delete(file);
      kept.set(file, { served, placer, version });
      // The files reported on least lately go first.
      for (const oldest of kept.keys()) {
        if (kept.size <= 1 || (kept.size <= KEPT_FILES && keptBytes() <= KEPT_BYTES)) break;
        kept.delete(oldest);
      }
      return placer;
  };
  return {
    get(file, version) {
      // Reports of one version share one request (and one version's reports may not wait on another's).
      const key = version === undefined ? file : `${file}\n${version}`;
      let pending = asking.get(key);
      if (!pending) {
        pending = get(file, version).finally(() => asking.delete(key));
        asking.set(key, pending);
      }
      return pending;
    },
    reset: () => kept.clear(),
  };
}

/**
 * A file of the tool as a report names it (relative to the tool folder or the framed page's base,
 * as the server made it), as a plain path: without a query or fragment, percent-decoded; undefined
 * for another site's file or a path that climbs out.
 */
function toolFile(file: string | null): string | undefined {
  if (file === null || /^[a-z][a-z0-9+.-]*:/i.test(file) || file.startsWith('/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(file.replace(/[?#].*$/s, ''));
  } catch {
    return undefined;
  }
  const normal = path.posix.normalize(decoded);
  return normal === '.' || normal === '..' || normal.startsWith('../') || normal.startsWith('/') || normal.includes('\\') ? undefined : normal;
}
