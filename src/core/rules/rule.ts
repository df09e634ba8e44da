import type { ExcludedEntry } from '../shipment/left-out.js';
import type { BundleEntry, BundleSource } from '../shipment/source.js';
import type { JsDetector } from '../code/js-rule.js';
import type { ManifestState } from '../manifest/read-manifest.js';
import type { Finding, LinePosition, Severity } from '../problem.js';

/** What the content pass learned about the bundle's files. */
export interface ContentSummary {
  /** Bytes each file really produced (inflated for a zip), by path; absent when not read. */
  readonly sizes: ReadonlyMap<string, number>;
  /** Total bytes produced, capped just past the budget. */
  readonly spent: number;
  /** True when the budget ran out and reading stopped early. */
  readonly exhausted: boolean;
  /** Files that were never read because the budget was already spent. */
  readonly unread: readonly string[];
}

/** Everything a rule may look at. Rules only read it; they never touch the bundle themselves. */
export interface RuleContext {
  readonly source: BundleSource;
  /** File entries (not directories, links or others), in bundle order. */
  readonly files: readonly BundleEntry[];
  readonly manifest: ManifestState;
  readonly content: ContentSummary;
  /** Findings made while reading: by the archive reader and the content scanners. */
  readonly collected: readonly Finding[];
  /** What the folder leaves out of the bundle (empty for a zip on its own), to name why a file is missing. */
  readonly excluded: readonly ExcludedEntry[];
}

export interface RuleHit<D> {
  file?: string;
  line?: number;
  column?: number;
  data: D;
  /** Where a source map is asked about the hit, when not at its own place (Finding.placeAt). */
  placeAt?: LinePosition;
}

export interface Rule<D extends object = Record<string, unknown>> {
  /** Kebab-case, equal to the rule's file name. Public API: never renamed. */
  readonly id: string;
  readonly severity: Severity;
  /**
   * A marketplace limit or a test of the archive's integrity: the platform refuses such a bundle
   * whatever our settings say, so no flag, config file or comment may turn it off or down.
   */
  readonly locked?: boolean;
  /** What it catches, in one line: the rules table of docs/rules.md and `pipeline-tool rules`. */
  readonly description: string;
  /** Why it matters, in one or two sentences: `pipeline-tool rules <id>` and the table of docs/rules.md. */
  readonly why: string;
  /** How to fix what it catches: `pipeline-tool rules <id>` and the table of docs/rules.md. */
  readonly fix: string;
  /** The wording of one finding, made from its data. */
  message(data: D, file?: string): string;
  check(context: RuleContext): RuleHit<D>[];
  /**
   * Which other findings one finding of this rule makes redundant: they share its cause, and its
   * message already names the fix (names all under "./" are why manifest.json and the files a page
   * refers to look missing). Returns a test for them, or nothing when this finding explains none.
   */
  supersedes?(hit: RuleHit<D>, context: RuleContext): ((other: Finding) => boolean) | undefined;
  /** For a rule found in JavaScript: how it reads the token stream (src/core/code/js-rule.ts). */
  readonly js?: JsDetector;
}

/** Why and how to fix, shared by the archive integrity rules, which have one cause and one cure. */
export const ARCHIVE_WHY =
  'The marketplace refuses an archive whose structure is not sound, and such damage is also how hostile zips show one reader different content than another.';
export const ARCHIVE_FIX = 'Build the zip again with pipeline-tool pack, which writes a plain, sound archive.';

export function defineRule<D extends object>(rule: Rule<D>): Rule<D> {
  return rule;
}

/** A rule whose findings are made while reading (by the zip reader or a content scanner). */
export function defineCollectedRule<D extends object>(rule: Omit<Rule<D>, 'check'>): Rule<D> {
  return {
    ...rule,
    check: (context) =>
      context.collected
        .filter((finding) => finding.ruleId === rule.id)
        .map(({ file, line, column, data, placeAt }) => (placeAt ? { file, line, column, data: data as D, placeAt } : { file, line, column, data: data as D })),
  };
}

/** A rule of any data shape, as the registry holds them; data is checked by each rule's own type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRule = Rule<any>;
