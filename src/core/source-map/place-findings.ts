import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BundleSource } from '../bundle/source.js';
import type { DisableDirective } from '../code/scanner.js';
import { CONFIG_FILE } from '../config/file-name.js';
import { UNKNOWN_DISABLE_DIRECTIVE } from '../code/rule-ids.js';
import { extensionOf } from '../paths.js';
import { builtTextOf } from './built-text.js';
import { sourceDirectives } from './source-directives.js';
import { createSourcePlacer, type MapNote, type SourcePlacerOptions, type SourcePosition } from './source-placer.js';

/** Where validate looks for source maps, and what the sources it finds are relative to. */
export interface SourceMapOptions {
  /**
   * The folder that source paths are relative to: the folder holding the project file. Default:
   * the current folder. A source outside it is not used.
   */
  root?: string;
  /**
   * The built folder on disk whose maps apply. Default: the folder being validated. A zip is placed
   * through maps only when this names the folder it was packed from (`pack` does so, and `validate`
   * of a zip names its project's `source`), and only for the entries that folder still holds
   * byte for byte: another build's map would place findings at made-up lines.
   */
  folder?: string;
  /** Abort to stop placing: no further map is read or decoded, and validation rejects with the reason. */
  signal?: AbortSignal;
  /**
   * The text of a map file by its path in the folder, for maps that are not on disk (a dev server's
   * modules, whose maps it holds in memory); see {@link SourcePlacerOptions.readMap}.
   */
  readMap?: SourcePlacerOptions['readMap'];
}

/** A finding's place as the rules found it. */
interface Located {
  ruleId: string;
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
}

export interface Placement<T> {
  /** The folder the placed paths are relative to, absolute. */
  root: string;
  /** Each finding placed at its source. */
  placed: Map<T, SourcePosition>;
  /** The disable comments of the source files that findings were placed in. */
  directives: DisableDirective[];
  /** The maps looked at and not used, and why. */
  notes: MapNote[];
}

/** Types whose built files carry source maps; pages are written by hand or copied as they are. */
const MAPPED_TYPES = new Set(['.js', '.css']);

/**
 * Places each code finding of a built script or stylesheet at the line the author wrote, through
 * the file's source map, and reads the disable comments of the sources so placed. Findings about
 * a comment of the built file itself (a disable directive naming an unknown rule) stay where they
 * are. Only a built file with a finding to place has its map read. Undefined when no finding sits
 * in a built file. A zip's findings are placed through the maps of `options.folder`, for the
 * entries it holds with the same bytes; those that cannot be are said once, in a note about the zip.
 */
export async function placeAtSources<T extends Located>(findings: readonly T[], source: BundleSource, options: SourceMapOptions): Promise<Placement<T> | undefined> {
  const candidates = findings.filter(
    (finding) => finding.file !== undefined && finding.line !== undefined && finding.column !== undefined && finding.ruleId !== UNKNOWN_DISABLE_DIRECTIVE && MAPPED_TYPES.has(extensionOf(finding.file)),
  );
  if (candidates.length === 0) return undefined;
  const root = path.resolve(options.root ?? process.cwd());
  const folder = options.folder ?? (source.kind === 'folder' ? source.location : undefined);
  if (folder === undefined) return { root, placed: new Map(), directives: [], notes: [zipNote(undefined, [])] };
  // The entries of a zip whose bytes the folder does not hold: its maps are another build's.
  const unmatched: string[] = [];
  const placer = createSourcePlacer({
    folder,
    root,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.readMap === undefined ? {} : { readMap: options.readMap }),
    readBuilt: async (file) => {
      const entry = source.entries.find((candidate) => candidate.path === file && candidate.kind === 'file');
      const built = entry && (await builtTextOf(source, entry, folder));
      if (built && 'unmatched' in built) unmatched.push(file);
      return built && 'text' in built ? built.text : undefined;
    },
  });
  const placed = new Map<T, SourcePosition>();
  // File by file, each map let go of once its file's findings are placed: a run holds one map at a time.
  const byFile = new Map<string, T[]>();
  for (const finding of candidates) {
    const list = byFile.get(finding.file!);
    if (list) list.push(finding);
    else byFile.set(finding.file!, [finding]);
  }
  for (const [file, findings] of byFile) {
    for (const finding of findings) {
      const position = await placer.place(file, finding.line!, finding.column!);
      if (position) placed.set(finding, position);
    }
    placer.release(file);
  }
  const directives: DisableDirective[] = [];
  for (const file of new Set([...placed.values()].map((position) => position.file))) {
    const text = placer.sourceText(file);
    if (text !== undefined) directives.push(...sourceDirectives(text, file));
  }
  const notes = placer.notes();
  if (unmatched.length > 0) notes.unshift(zipNote({ shown: shownFolder(folder, root), exists: await isFolder(folder) }, unmatched));
  return { root, placed, directives, notes };
}

/**
 * The one note about a zip whose findings could not be placed: no maps were found for them, and
 * where they were looked for: nowhere (no built folder was named: a zip holds no maps), or in the
 * built folder, which does not hold the same bytes (or does not exist).
 */
function zipNote(folder: { shown: string; exists: boolean } | undefined, unmatched: readonly string[]): MapNote {
  const which = unmatched.length === 0 ? 'its scripts and stylesheets' : unmatched.length === 1 ? unmatched[0]! : `${unmatched[0]!} and ${unmatched.length - 1} other ${unmatched.length === 2 ? 'file' : 'files'}`;
  const where =
    folder === undefined
      ? `a zip holds none, and no project file (${CONFIG_FILE}) in its folder or above names the built folder it was packed from`
      : !folder.exists
        ? `they were looked for in the built folder, ${folder.shown}, which does not exist`
        : `they were looked for in the built folder, ${folder.shown}, which does not hold the same ${unmatched.length === 1 ? 'file' : 'files'} (built again since the zip was packed?)`;
  return { reason: 'no-maps', message: `findings in ${which} are not placed at their sources: no source maps were found: ${where}` };
}

/** The built folder as a note names it: from the project's folder, else as it is. */
function shownFolder(folder: string, root: string): string {
  const absolute = path.resolve(folder);
  const relative = path.relative(root, absolute);
  if (relative === '') return './';
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : `${relative.split(path.sep).join('/')}/`;
}

async function isFolder(folder: string): Promise<boolean> {
  return stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
