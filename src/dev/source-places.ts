import path from 'node:path';
import { MAX_MAP_BYTES, createSourcePlacer, type SourcePlacer } from '../core/source-map/source-placer.js';
import { readInside } from '../core/source-map/read-inside.js';
import type { ToolProblem } from './tool-problems.js';

/**
 * Places what goes wrong in the running tool at the author's source, as validate places its
 * findings: through the source maps of the tool folder's built files. The maps are read once and
 * kept until `reset`, which the server calls whenever the tool reloads (a rebuild writes new ones).
 */
export interface RuntimePlaces {
  place(problem: ToolProblem): Promise<ToolProblem>;
  reset(): void;
}

/** `realRoot` is the tool folder (its real path); source paths are relative to `sourceRoot`. */
export function createRuntimePlaces(realRoot: string, sourceRoot: string): RuntimePlaces {
  const fresh = (): SourcePlacer =>
    createSourcePlacer({
      folder: realRoot,
      root: sourceRoot,
      readBuilt: async (file) => (await readInside(realRoot, path.join(realRoot, ...file.split('/')), MAX_MAP_BYTES))?.toString('utf8'),
    });
  let placer = fresh();
  return {
    async place(problem) {
      const file = toolFile(problem.file);
      if (file === undefined || problem.line === null || problem.column === null) return problem;
      // Browsers count columns in UTF-16 code units.
      const source = await placer.place(file, problem.line, problem.column, 'utf16').catch(() => undefined);
      if (!source) return problem;
      return { ...problem, file: source.file, line: source.line, column: source.column, built: { file, line: problem.line, column: problem.column } };
    },
    reset() {
      placer = fresh();
    },
  };
}

/**
 * A file of the tool as a report names it (relative to the tool folder, as the server made it), as
 * a plain path: without a query or fragment, percent-decoded; undefined for another site's file
 * or a path that climbs out.
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
