import path from 'node:path';
import type { BundleSource } from '../shipment/source.js';
import type { DisableDirective } from '../code/scanner.js';
import type { LinePosition } from '../problem.js';
import { UNKNOWN_DISABLE_DIRECTIVE } from '../code/rule-ids.js';
import { extensionOf } from '../paths.js';
import { sourceDirectives } from './source-directives.js';
import { createSourcePlacer, MAX_MAP_BYTES, type MapNote, type SourcePlacerOptions, type SourcePosition } from './source-placer.js';

/** Where validate looks for source maps, and what the sources it finds are relative to. */
export interface SourceMapOptions {
  /**
   * The folder that source paths are relative to: the folder holding the project file. Default:
   * the current folder. A source outside it is not used.
   */
  root?: string;
  /**
   * The built folder on disk whose maps apply. Default: the folder being validated. A zip is placed
   * through maps only when this names the folder it was packed from (`pack` does so).
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
}

/** Types whose built files carry source maps; pages are written by hand or copied as they are. */
const MAPPED_TYPES = new Set(['.js', '.css']);

/**
 * Places each code finding of a built script or stylesheet at the line the author wrote, through
 * the file's source map, and reads the disable comments of the sources so placed. Findings about
 * a comment of the built file itself (a disable directive naming an unknown rule) stay where they
 * are. Undefined when nothing can be placed (a zip on its own, or no finding in a built file).
 */
export async function placeAtSources<T extends Located>(findings: readonly T[], source: BundleSource, options: SourceMapOptions): Promise<Placement<T> | undefined> {
  const folder = options.folder ?? (source.kind === 'folder' ? source.location : undefined);
  if (folder === undefined) return undefined;
  const candidates = findings.filter(
    (finding) => finding.file !== undefined && finding.line !== undefined && finding.column !== undefined && finding.ruleId !== UNKNOWN_DISABLE_DIRECTIVE && MAPPED_TYPES.has(extensionOf(finding.file)),
  );
  if (candidates.length === 0) return undefined;
  const root = path.resolve(options.root ?? process.cwd());
  const damaged = new Set(source.findings.map((finding) => finding.file));
  const placer = createSourcePlacer({
    folder,
    root,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.readMap === undefined ? {} : { readMap: options.readMap }),
    readBuilt: async (file) => {
      const entry = source.entries.find((candidate) => candidate.path === file && candidate.kind === 'file');
      // An entry whose bytes the archive could not vouch for has no trustworthy text to map.
      if (!entry || !entry.readable || damaged.has(file) || entry.declaredSize > MAX_MAP_BYTES) return undefined;
      const chunks: Buffer[] = [];
      const read = await source.read(entry, entry.declaredSize + 1, (chunk) => chunks.push(chunk));
      return read.stoppedAtLimit ? undefined : Buffer.concat(chunks).toString('utf8');
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
      const at = finding.placeAt ?? { line: finding.line!, column: finding.column! };
      const position = await placer.place(file, at.line, at.column);
      if (position) placed.set(finding, position);
    }
    placer.release(file);
  }
  const directives: DisableDirective[] = [];
  for (const file of new Set([...placed.values()].map((position) => position.file))) {
    const text = placer.sourceText(file);
    if (text !== undefined) directives.push(...sourceDirectives(text, file));
  }
  return { root, placed, directives, notes: placer.notes() };
}
