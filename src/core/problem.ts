import type { ExcludedEntry } from './shipment/left-out.js';
import type { MapNote } from './source-map/source-placer.js';

/** How bad a problem is. `error` fails the gate; `warning` is reported but passes. */
export type Severity = 'error' | 'warning';

/** What a rule detected, as data. The wording is derived later from `data` by the rule. */
export interface Finding {
  ruleId: string;
  /** Path of the entry inside the bundle the finding is about, if any. */
  file?: string;
  line?: number;
  column?: number;
  data: Record<string, unknown>;
  /**
   * Where a source map is asked about the finding, when not at its own place: a bridge call is
   * reported where its chain starts, but looked up at the called method's name (see BridgeCall).
   */
  placeAt?: LinePosition;
}

/** A 1-based line and column (in characters) in a file. */
export interface LinePosition {
  line: number;
  column: number;
}

/** A position in a file of the bundle: `line` and `column` are 1-based, columns in characters. */
export interface BuiltPosition {
  file: string;
  line: number;
  column: number;
}

/** A finding with its severity and its human wording: what reports and formatters carry. */
export interface Problem {
  ruleId: string;
  severity: Severity;
  message: string;
  /**
   * The file the problem is about: a path inside the bundle, or, when `built` is set, the author's
   * source file, relative to the report's `sourceRoot`.
   */
  file?: string;
  line?: number;
  column?: number;
  /**
   * Where the problem sits in the bundle, when a source map placed it at the author's source
   * (`file`, `line` and `column` are then the source's).
   */
  built?: BuiltPosition;
  data?: Record<string, unknown>;
  /**
   * A finding of a code rule in library code: a vendored or minified file, by its folder, name or
   * licence banner (src/core/code/library.ts). Output sums up such warnings per package or file;
   * they still count. (A library's storage use that a `try`/`catch` guards is no problem at all.)
   */
  library?: true;
  /** For library code under node_modules/: the npm package it belongs to, by its path. */
  package?: string;
}

export interface Report {
  /** The bundle that was checked, as given (a .zip file or a folder). */
  bundle: string;
  kind: 'zip' | 'folder';
  /** True when no problem is an error. Warnings alone keep a bundle ok. */
  ok: boolean;
  errorCount: number;
  warningCount: number;
  problems: Problem[];
  /**
   * For a tool folder: the files and folders that do not ship, and why, as \`pack --dry-run\` lists
   * them. Listed for information; they are not problems.
   */
  excluded?: ExcludedEntry[];
  /**
   * The folder (absolute) that the `file` of a problem placed through a source map (one with
   * `built`) is relative to: the folder holding the project file, or the current folder. Set only
   * when some problem was so placed.
   */
  sourceRoot?: string;
  /**
   * Source maps that were looked at to place findings and not used, and why (a malformed
   * `mappings`, a budget spent): notes, not problems. The findings stay in the built files.
   */
  mapNotes?: MapNote[];
}

export function summarise(bundle: string, kind: Report['kind'], problems: Problem[]): Report {
  const errorCount = problems.filter((p) => p.severity === 'error').length;
  return {
    bundle,
    kind,
    ok: errorCount === 0,
    errorCount,
    warningCount: problems.length - errorCount,
    problems,
  };
}
