import { openMemorySource, type MemoryFile } from '../bundle/memory-source.js';
import { SERVED_RULE_IDS } from '../code/rule-ids.js';
import { MANIFEST_PATH } from '../paths.js';
import type { BuiltPosition, Problem } from '../problem.js';
import { validateBundle, type ValidateOptions } from '../validate.js';

/*
 * One module as a dev server serves it (Vite's transformed code, with its source map), checked by
 * validate's own code rules (SERVED_RULE_IDS: those that judge a module by its code alone) and
 * placed through its map at the author's source, as validate places a build's findings. What needs
 * the whole built folder (sizes, file types, references, syntax) waits for a build.
 */

export interface ServedModule {
  /** The module's path as served, relative to the served folder: `src/App.tsx`, `node_modules/.vite/deps/react.js`. */
  path: string;
  /** The code served. */
  code: string;
  /** Its source map, as the server holds it; the map's relative sources are resolved from the module's folder. */
  map?: unknown;
}

export interface ServedCheckOptions extends Pick<ValidateOptions, 'rules' | 'overrides'> {
  /** The folder the server serves (Vite's root). */
  folder: string;
  /** The project's folder: placed paths are relative to it, as validate makes them. */
  root: string;
  /** The tool's manifest.json as it is now, for the rules that depend on the tool type; left out, none do. */
  manifest?: Buffer;
}

/** A problem found in a served module: placed at the author's source when its map allows, with its place in the served code. */
export type ServedProblem = Omit<Problem, 'built'> & { served?: BuiltPosition };

/**
 * The problems validate's code rules find in one served module. The module is checked alone, as a
 * script file of a bundle that holds it and the manifest; every problem is about the module.
 */
export async function checkServedModule(module: ServedModule, options: ServedCheckOptions): Promise<ServedProblem[]> {
  // Scripts are known by their extension; a module served from `App.tsx` or `App.vue` is JavaScript all the same.
  const asScript = module.path.endsWith('.js') ? module.path : `${module.path}.js`;
  const files: MemoryFile[] = [{ path: asScript, bytes: Buffer.from(module.code, 'utf8') }];
  if (options.manifest !== undefined) files.push({ path: MANIFEST_PATH, bytes: options.manifest });
  const source = openMemorySource(options.folder, files);
  const map = module.map;
  const report = await validateBundle(source, {
    ...(options.rules === undefined ? {} : { rules: options.rules }),
    ...(options.overrides === undefined ? {} : { overrides: options.overrides }),
    only: SERVED_RULE_IDS,
    sourceMaps: {
      root: options.root,
      folder: options.folder,
      // The map is made text only when a finding needs placing.
      readMap: async (file) => (file === `${asScript}.map` && map !== undefined && map !== null ? JSON.stringify(map) : undefined),
    },
  });
  return report.problems.map(({ built, ...problem }) => {
    const served: ServedProblem = problem.file === asScript ? { ...problem, file: module.path } : problem;
    if (built !== undefined) served.served = { ...built, file: module.path };
    return served;
  });
}
