import type { Finding, LinePosition } from '../problem.js';
import type { ModuleCondition } from './module-links.js';
import type { DisableDirective, ScanOutput } from './scanner.js';

/**
 * A vendored library can use `localStorage` a thousand times; past this many findings of one rule
 * in one file, the rest are only counted (the last finding kept says how many more there were), so
 * that a hostile or generated file cannot make the report, or memory, grow without bound.
 */
export const MAX_FINDINGS_PER_RULE = 100;

const DIRECTIVE = 'pipeline-tool-disable-next-line';

/** Collects what the scanners of one file find. Sub-scanners (a `<script>` in a page) share it. */
export class FileReport {
  private readonly findings: Finding[] = [];
  private readonly directives: DisableDirective[] = [];
  private readonly counts = new Map<string, number>();
  private readonly lastKept = new Map<string, Finding>();
  /** Findings made through an imported name, kept until the bundle says whether it was the bridge. */
  private readonly conditional: Array<{ finding: Finding; condition: ModuleCondition }> = [];

  constructor(readonly file: string) {}

  add(ruleId: string, line: number, column: number, data: Record<string, unknown>, condition?: ModuleCondition, placeAt?: LinePosition): void {
    const made = (): Finding => (placeAt ? { ruleId, file: this.file, line, column, data, placeAt } : { ruleId, file: this.file, line, column, data });
    if (condition) {
      if (this.conditional.length < MAX_FINDINGS_PER_RULE) this.conditional.push({ finding: made(), condition });
      return;
    }
    const count = (this.counts.get(ruleId) ?? 0) + 1;
    this.counts.set(ruleId, count);
    if (count > MAX_FINDINGS_PER_RULE) return;
    const finding = made();
    this.findings.push(finding);
    this.lastKept.set(ruleId, finding);
  }

  /**
   * Reads a comment's text (without its delimiters) as a directive if it is one. `line` and
   * `column` are where the comment starts, `endLine` where it ends.
   */
  comment(text: string, line: number, column: number, endLine: number): void {
    // A JSDoc-style comment puts a star before the text.
    const trimmed = text.replace(/^[\s*]+/, '');
    if (!trimmed.startsWith(DIRECTIVE)) return;
    const rest = trimmed.slice(DIRECTIVE.length);
    // The directive name must stand alone: "…-next-lines" is not it.
    if (rest !== '' && !/^\s/.test(rest)) return;
    // Like eslint, " -- " starts a free-text reason.
    const list = rest.split(/\s--\s|\s--$/)[0] ?? '';
    const ruleIds = list.split(/[\s,]+/).filter(Boolean);
    this.directives.push({ file: this.file, line, column, target: endLine + 1, ruleIds });
  }

  finish(): ScanOutput {
    for (const [ruleId, count] of this.counts) {
      const last = this.lastKept.get(ruleId);
      if (count > MAX_FINDINGS_PER_RULE && last) last.data = { ...last.data, more: count - MAX_FINDINGS_PER_RULE };
    }
    // Some findings wait for the end of their scope; give them all in the order of the file.
    this.findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    const output: ScanOutput = { findings: this.findings, directives: this.directives };
    const later = conditionalLater(this.conditional);
    if (later) output.later = later;
    return output;
  }

  /** The findings made through imported names, each with what it waits on (a job's, handed to the reading thread). */
  conditions(): ReadonlyArray<{ finding: Finding; condition: ModuleCondition }> {
    return this.conditional;
  }
}

/** The findings whose conditions hold once the whole bundle is read; undefined when there are none. */
export function conditionalLater(conditional: ReadonlyArray<{ finding: Finding; condition: ModuleCondition }>): ScanOutput['later'] {
  if (conditional.length === 0) return undefined;
  return async () => conditional.filter((c) => c.condition.holds()).map((c) => c.finding);
}

/** True if a comment's bytes could hold a directive: a cheap test before decoding any text. */
export function mayBeDirective(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  for (let c = bytes[i]; i < end && (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2a); c = bytes[++i]);
  return i < end && bytes[i] === 0x70 /* p */ && end - i >= DIRECTIVE.length;
}

/** Both of two pieces of work that wait for the whole bundle. */
export function joinLater(a: ScanOutput['later'], b: ScanOutput['later']): ScanOutput['later'] {
  if (!a || !b) return a ?? b;
  return async () => [...(await a()), ...(await b())];
}
