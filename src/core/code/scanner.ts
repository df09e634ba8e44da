import type { BundleEntry } from '../shipment/source.js';
import type { ManifestState } from '../manifest/read-manifest.js';
import type { Finding } from '../problem.js';

/**
 * A `pipeline-tool-disable-next-line` comment: the listed rules (all rules when the list is empty)
 * report nothing on line `target` of `file`.
 */
export interface DisableDirective {
  file: string;
  /** Where the comment is, to point at it when it names an unknown rule. */
  line: number;
  column: number;
  /** The line the directive silences: the one after the line where the comment ends. */
  target: number;
  ruleIds: string[];
}

export interface ScanOutput {
  findings: Finding[];
  directives: DisableDirective[];
  /**
   * Findings that need the whole bundle read first (a script's syntax depends on whether a page
   * loads it as a module) or work done elsewhere: called once every file has been read.
   */
  later?: () => Promise<Finding[]>;
  /**
   * The rest of the output, when the file is checked as a job on another thread (code-threads.ts):
   * given at the file's turn in bundle order, and to be taken in that order.
   */
  deferred?: Promise<ScanOutput>;
  /** Whether the file's first bytes say it is library code (a licence banner, a UMD wrapper; library.ts), asked only for a file with findings. */
  library?: () => boolean;
}

/** What a scanner may know about the bundle besides the file it reads. */
export interface ScanContext {
  readonly manifest: ManifestState;
  /** File entries, in bundle order. */
  readonly files: readonly BundleEntry[];
  /**
   * Whether a rule is turned off for a file (by `rules` or an override): work done only for that
   * rule, such as V8 parsing a script for js-syntax, is then skipped. Absent: every rule is on.
   */
  readonly ruleOff?: (ruleId: string, file: string) => boolean;
}

/**
 * One file being read: its bytes arrive in order, in chunks of any size, then `end` once. A chunk's
 * memory is never reused by the reader after `write` returns, so a session may keep a chunk
 * without copying it.
 */
export interface ScanSession {
  write(chunk: Buffer): void;
  /** `complete` is false when reading stopped early (the byte budget ran out). */
  end(complete: boolean): ScanOutput;
}

/**
 * Looks at file contents during validate's single pass over the bundle. Each file is read once, and
 * its chunks go to every scanner that accepts it, so a scanner must work on a stream: it keeps its
 * state between chunks and never needs the whole file at once.
 */
export interface ContentScanner {
  readonly name: string;
  accepts(entry: BundleEntry, context: ScanContext): boolean;
  begin(entry: BundleEntry, context: ScanContext): ScanSession;
}
