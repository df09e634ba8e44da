import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BundleSource } from '../shipment/source.js';
import type { DisableDirective } from '../code/scanner.js';
import type { LinePosition } from '../problem.js';
import { CONFIG_FILE } from '../config/file-name.js';
import { UNKNOWN_DISABLE_DIRECTIVE } from '../code/rule-ids.js';
import { extensionOf } from '../paths.js';
import { packageOf } from '../code/library.js';
import { builtTextOf } from './built-text.js';
import type { CompiledSink, LibraryEntry } from './compiled-sinks.js';
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
  /** Where the map is asked about the finding instead (a bridge call's method name). */
  placeAt?: LinePosition | undefined;
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
  /** Findings at the author's syntax that a framework compiles into a sink of its own (see compiled-sinks.ts). */
  compiled: CompiledFinding[];
  /** For a finding in a package's code, where the author's own code turns that package on (see LibraryEntry). */
  enabledAt: Map<T, SourcePosition>;
}

/** A finding at the author's place of a compiled sink, with its place in the built file. */
export interface CompiledFinding {
  ruleId: string;
  file: string;
  line: number;
  column: number;
  data: object;
  placed: SourcePosition;
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
export async function placeAtSources<T extends Located>(
  findings: readonly T[],
  source: BundleSource,
  options: SourceMapOptions,
  compiledSinks: ReadonlyMap<string, readonly CompiledSink<object>[]> = new Map(),
  libraryEntries: ReadonlyMap<string, readonly LibraryEntry[]> = new Map(),
): Promise<Placement<T> | undefined> {
  const candidates = findings.filter(
    (finding) => finding.file !== undefined && finding.line !== undefined && finding.column !== undefined && finding.ruleId !== UNKNOWN_DISABLE_DIRECTIVE && MAPPED_TYPES.has(extensionOf(finding.file)),
  );
  if (candidates.length === 0) return undefined;
  const root = path.resolve(options.root ?? process.cwd());
  const folder = options.folder ?? (source.kind === 'folder' ? source.location : undefined);
  if (folder === undefined) return { root, placed: new Map(), directives: [], notes: [zipNote(undefined, [])], compiled: [], enabledAt: new Map() };
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
  const compiled: CompiledFinding[] = [];
  const enabledAt = new Map<T, SourcePosition>();
  for (const [file, findings] of byFile) {
    const sinks = new Map<CompiledSink<object>, string>();
    for (const finding of findings) {
      const at = finding.placeAt ?? { line: finding.line!, column: finding.column! };
      const position = await placer.place(file, at.line, at.column);
      if (position) placed.set(finding, position);
      for (const sink of compiledSinks.get(finding.ruleId) ?? []) if (position && sink.framework.test(position.file)) sinks.set(sink, finding.ruleId);
    }
    // Where the author turns on a package that has findings: looked for once per package and built file.
    const entries = new Map<LibraryEntry, T[]>();
    for (const finding of findings) {
      const position = placed.get(finding);
      const pkg = position === undefined ? undefined : packageOf(position.file);
      const entry = pkg === undefined ? undefined : libraryEntries.get(finding.ruleId)?.find((candidate) => candidate.package === pkg);
      if (entry) entries.set(entry, [...(entries.get(entry) ?? []), finding]);
    }
    for (const [entry, turnedOn] of entries) {
      const at = (text: string, offset: number) => (entry.at.test(text.slice(offset, offset + 256)) && !/[\w$.]$/.test(text.slice(Math.max(0, offset - 1), offset)) ? true : undefined);
      const [site] = await placer.sitesOf(file, (written) => !written.split(/[\\/]/).includes('node_modules'), at);
      if (site) for (const finding of turnedOn) enabledAt.set(finding, site.at);
    }
    for (const [sink, ruleId] of sinks) {
      for (const site of await placer.sitesOf(file, (written) => sink.sources.test(written), sink.site)) {
        compiled.push({ ruleId, file, line: site.line, column: site.column, data: site.data, placed: site.at });
      }
    }
    placer.release(file);
  }
  const directives: DisableDirective[] = [];
  for (const file of new Set([...placed.values(), ...compiled.map((finding) => finding.placed)].map((position) => position.file))) {
    const text = placer.sourceText(file);
    if (text !== undefined) directives.push(...sourceDirectives(text, file));
  }
  const notes = placer.notes();
  if (unmatched.length > 0) notes.unshift(zipNote({ shown: shownFolder(folder, root), exists: await isFolder(folder) }, unmatched));
  return { root, placed, directives, notes, compiled, enabledAt };
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
