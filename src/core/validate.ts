import { openBundleForVerdict } from './bundle/open-bundle.js';
import type { ExcludedEntry } from './shipment/left-out.js';
import type { BundleEntry, BundleSource } from './shipment/source.js';
import { afterScans, beforeScans, contentScanners, type DisableDirective, type ScanContext, type ScanOutput, type ScanSession } from './code/index.js';
import { isLibraryPath, packageOf } from './code/library.js';
import { CODE_RULE_IDS, UNKNOWN_DISABLE_DIRECTIVE } from './code/rule-ids.js';
import { globProblem } from './config/globs.js';
import { settingsResolver, type RuleOverride } from './config/settings.js';
import { UsageError } from './errors.js';
import { locateManifest, MANIFEST_MAX_BYTES, parseManifest, type ManifestState } from './manifest/read-manifest.js';
import { nearestName, unknownRuleMessage } from './nearest.js';
import { summarise, type Finding, type Problem, type Report, type Severity } from './problem.js';
import { rules as registry } from './rules/index.js';
import type { AnyRule, ContentSummary, RuleContext, RuleHit } from './rules/rule.js';
import { MAX_UNPACKED_BYTES } from './rules/unpacked-size.js';
import type { CompiledSink } from './source-map/compiled-sinks.js';
import { placeAtSources, type SourceMapOptions } from './source-map/place-findings.js';
import { silencedLines } from './source-map/source-directives.js';
import type { SourcePosition } from './source-map/source-placer.js';
import { FirstBytes } from './first-bytes.js';
import { placeText } from './place-text.js';

export type { SourceMapOptions } from './source-map/place-findings.js';

export type RuleSetting = 'off' | 'warn' | 'error';

export interface ValidateOptions {
  /** Turn rules off or change their severity, by id. An unknown id is a UsageError. */
  rules?: Readonly<Record<string, RuleSetting>>;
  /**
   * Settings for some files only, applied over `rules` to each finding whose file matches, the
   * last matching override winning (eslint's flat config). A finding about no file takes `rules`
   * alone. A bad pattern, unknown id or relaxed locked rule is a UsageError.
   */
  overrides?: readonly RuleOverride[];
  /** Inflation budget in bytes; defaults to the marketplace's 50,000,000. */
  budget?: number;
  /**
   * What the folder a zip was packed from left out, so a reference to such a file names the real
   * cause. A folder opened as a bundle brings its own list.
   */
  excluded?: readonly ExcludedEntry[];
  /**
   * Findings in built scripts and stylesheets are placed at the author's source through their
   * source maps (docs/source-maps.md): the maps of a folder are looked for beside its files, and
   * source paths are relative to `root` (default: the current folder). False: leave every finding
   * in the built file.
   */
  sourceMaps?: SourceMapOptions | false;
  /**
   * Run these rules only: a narrower check than the gate, for what can be judged without the whole
   * bundle (the Vite plugin checks each module it serves this way, with the ids of code/rule-ids.ts SERVED_RULE_IDS).
   * Rules outside the list do not run, locked ones included, and work done only for them (V8's
   * parse for js-syntax) is skipped.
   */
  only?: readonly string[];
  /**
   * Collects the process's garbage (V8's `gc`, which only the caller can expose): called each
   * time COLLECT_EVERY more bytes have been read. What is inflated is garbage once the scanners
   * have seen it, but it lives outside V8's heap, which V8 collects only after tens of megabytes,
   * so each entry would take fresh memory (docs/performance.md, round seven). The CLI's validate
   * gives it, and pack for the check of the zip it wrote.
   */
  collectGarbage?: () => void;
}

/** Bytes read between two calls of `collectGarbage`. */
export const COLLECT_EVERY = 8 * 1024 * 1024;

/**
 * Checks a bundle (a .zip file or a folder, by path, or an already opened source) against every
 * rule and returns the report. Never prints; throws only UsageError (the bundle cannot be opened,
 * a bad option) or a genuine internal error. A broken or hostile archive is a report, not a throw.
 */
export async function validateBundle(bundle: string | BundleSource, options: ValidateOptions = {}): Promise<Report> {
  const settings = settingsResolver(checkRuleSettings(options.rules ?? {}), checkOverrides(options.overrides ?? []));
  const source = typeof bundle === 'string' ? await openBundleForVerdict(bundle) : bundle;
  try {
    const excluded = options.excluded ?? source.excluded;
    const only = options.only === undefined ? undefined : new Set(options.only);
    const ruleOff = (ruleId: string, file: string) => only?.has(ruleId) === false || settings.settingFor(ruleId, file) === 'off';
    const { context, directives, libraryFiles } = await inspect(source, options.budget ?? MAX_UNPACKED_BYTES, excluded ?? [], ruleOff, options.collectGarbage);
    // A folder's zip may still be being measured: the rules judge its size.
    await source.sized;
    const found: RuleFinding[] = [];
    // Findings that another one explains, as its rule says (`supersedes`), are left out.
    const explained: ((other: Finding) => boolean)[] = [];
    for (const rule of registry) {
      if (only?.has(rule.id) === false) continue;
      if (settings.settingFor(rule.id, undefined) === 'off' && !settings.overridden(rule.id)) continue;
      for (const hit of rule.check(context)) {
        found.push({ rule, ruleId: rule.id, ...hit });
        const covers = settings.settingFor(rule.id, hit.file) === 'off' ? undefined : rule.supersedes?.(hit, context);
        if (covers) explained.push(covers);
      }
    }
    const hits = explained.length > 0 ? found.filter((hit) => !explained.some((covers) => covers({ ...hit, data: hit.data as Record<string, unknown> }))) : found;
    // Placed before the settings apply, so that overrides and comments can name the author's files.
    const placement = options.sourceMaps === false ? undefined : await placeAtSources(hits, source, options.sourceMaps ?? {}, COMPILED_SINKS, LIBRARY_ENTRIES);
    const sourceDirectives = placement?.directives ?? [];
    const unknownInSources = unknownDirectiveIds(sourceDirectives).map((finding): RuleFinding => ({ rule: unknownDirectiveRule, ...finding }));
    // The author's syntax that a framework compiled into a sink of its own, placed where it was written.
    const compiled = (placement?.compiled ?? []).map(({ ruleId, file, line, column, data, placed }) => {
      const hit: RuleFinding = { rule: registry.find((rule) => rule.id === ruleId)!, ruleId, file, line, column, data };
      placement!.placed.set(hit, placed);
      return hit;
    });
    const problems: Problem[] = [];
    // Code that the bundle holds twice (inlined, or in two chunks) is one problem at its source.
    const atSource = new Set<string>();
    const all = [...hits, ...compiled, ...unknownInSources];
    const libraries = new Map<RuleFinding, { package?: string }>();
    for (const hit of all) {
      // Library code: where a map places the finding, by its source's path (node_modules/…), so
      // the author's own source is never taken for a library; else by the built file.
      if (!CODE_RULE_IDS.includes(hit.ruleId) || hit.file === undefined) continue;
      const placed = placement?.placed.get(hit);
      const library = placed ? isLibraryPath(placed.file) : isLibraryPath(hit.file) || libraryFiles.get(hit.file)?.() === true;
      if (library) libraries.set(hit, { package: packageOf(placed?.file ?? hit.file) });
    }
    const guarded = guardedInLibraries(libraries);
    for (const hit of all) {
      const placed = placement?.placed.get(hit);
      const setting = settings.settingFor(hit.ruleId, placed ? [placed.file, hit.file!] : hit.file);
      if (setting === 'off') continue;
      const library = libraries.get(hit);
      if (library && guarded(hit, library)) continue;
      const severity: Severity = setting === 'warn' ? 'warning' : setting === 'error' ? 'error' : hit.rule.severity;
      const enabled = placement?.enabledAt.get(hit);
      const data =
        library?.package === undefined ? hit : { ...hit, data: { ...hit.data, package: library.package, ...(enabled ? { enabledAt: placeText(enabled.file, enabled.line, enabled.column) } : {}) } };
      const problem = toProblem(hit.rule, severity, data, placed);
      if (library) problem.library = true;
      if (library?.package !== undefined) problem.package = library.package;
      if (placed) {
        const key = JSON.stringify([problem.ruleId, problem.file, problem.line, problem.column, problem.message]);
        if (atSource.has(key)) continue;
        atSource.add(key);
      }
      problems.push(problem);
    }
    const kept = withoutSilenced(problems, directives, sourceDirectives);
    const report = summarise(source.location, source.kind, sortProblems(kept));
    if (placement && kept.some((problem) => problem.built !== undefined)) report.sourceRoot = placement.root;
    if (placement && placement.notes.length > 0) report.mapNotes = placement.notes;
    return excluded ? { ...report, excluded: [...excluded] } : report;
  } finally {
    if (typeof bundle === 'string') await source.close();
  }
}

/**
 * The single pass over the bundle's content: the manifest first (so it is read even when the
 * budget runs out), then every file in bundle order. A zip's entries are all inflated, because
 * that is the only way to verify their checksums and real sizes; a folder's sizes come from the
 * file system, so its files are read only when a scanner needs their content. Each chunk read goes
 * to every content scanner that accepts the file, so no file is ever read twice.
 */
async function inspect(
  source: BundleSource,
  budget: number,
  excluded: readonly ExcludedEntry[],
  ruleOff: (ruleId: string, file: string) => boolean,
  collect?: () => void,
): Promise<{ context: RuleContext; directives: DisableDirective[]; libraryFiles: Map<string, () => boolean> }> {
  const files = source.entries.filter((e) => e.kind === 'file');
  const libraryFiles = new Map<string, () => boolean>();
  const sizes = new Map<string, number>();
  const unread: string[] = [];
  const scanned: Finding[] = [];
  const directives: DisableDirective[] = [];
  const later: Array<() => Promise<Finding[]>> = [];
  const outputs: Array<ScanOutput | Promise<ScanOutput>> = [];
  let spent = 0;
  let exhausted = false;
  let collectedAt = 0;

  const located = locateManifest(source);
  let manifest: ManifestState = 'status' in located ? (unlisted(source) ? { status: 'unreadable' } : located) : { status: 'missing' };
  const ordered = 'status' in located ? files : [located, ...files.filter((e) => e !== located)];
  for (const entry of ordered) {
    // An entry that declares more than the whole budget fails whatever it holds: on its size if
    // the header is honest, on the lie if not. It is not inflated; its declared size is counted.
    // Past the budget nothing more is inflated; each file's declared size still stands in its
    // place, so that the largest files can be named (unpacked-size marks them as declared).
    if (exhausted || (source.kind === 'zip' && entry.declaredSize > budget)) {
      unread.push(entry.path);
      sizes.set(entry.path, entry.declaredSize);
      if (!exhausted) {
        if (entry === located) manifest = parseManifest(Buffer.alloc(0), entry.declaredSize);
        spent += entry.declaredSize;
        exhausted = true;
      }
      continue;
    }
    const isManifest = entry === located;
    const keep = isManifest ? new FirstBytes(MANIFEST_MAX_BYTES + 1) : undefined;
    // The manifest is read before every other file, so scanners see its final state. A file that
    // says it is larger than what is left of the budget is not scanned: either it is, and the
    // bundle fails on its size, or its header lies, and it fails on that; reading 50 MB of a bomb
    // as code would only make the rejection slow.
    const overBudget = entry.declaredSize > budget - spent;
    const scan = isManifest || !entry.readable || overBudget ? undefined : { manifest, files, ruleOff };
    if (scan) await beforeScans(entry, scan);
    const sessions = scan ? beginScans(entry, scan) : [];
    let bytes = entry.declaredSize;
    let stopped = false;
    if (source.kind === 'zip' || keep || sessions.length > 0) {
      const limit = Math.max(0, budget - spent);
      const result = entry.readable ? await source.read(entry, limit, keep ? (chunk) => keep.write(chunk) : fanOut(sessions)) : { bytes: 0, stoppedAtLimit: false };
      // A zip's sizes are what inflating really gives; a folder's come exact from the file system,
      // and the budget there only bounds how much is read for the scanners.
      if (source.kind === 'zip') bytes = result.bytes + (result.stoppedAtLimit ? 1 : 0);
      stopped = result.stoppedAtLimit;
      for (const session of sessions) {
        const output = session.end(!result.stoppedAtLimit);
        if (output.library) libraryFiles.set(entry.path, output.library);
        outputs.push(output.deferred ?? output);
      }
    }
    if (isManifest && keep) manifest = unreadable(source, entry) ? { status: 'unreadable' } : parseManifest(keep.bytes(), bytes);
    // A file cut short by the budget is at least as large as its header says, when that is more
    // than was inflated; the total counts only what was inflated.
    sizes.set(entry.path, stopped ? Math.max(bytes, entry.declaredSize) : bytes);
    spent += bytes;
    if (collect && spent - collectedAt >= COLLECT_EVERY) {
      collectedAt = spent;
      collect();
    }
    // A folder's sizes are all known from the file system; only a zip's can be left unknown.
    if (spent > budget && source.kind === 'zip') exhausted = true;
  }
  // In bundle order, whichever thread checked the file (code/code-threads.ts).
  for (const pending of outputs) {
    const output = pending instanceof Promise ? await pending : pending;
    scanned.push(...output.findings);
    directives.push(...output.directives);
    if (output.later) later.push(output.later);
  }
  afterScans(files);
  for (const settle of later) scanned.push(...(await settle()));
  const content: ContentSummary = { sizes, spent, exhausted, unread };
  const collected: Finding[] = [...source.findings, ...scanned, ...unknownDirectiveIds(directives)];
  return { context: { source, files, manifest, content, collected, excluded }, directives, libraryFiles };
}

/** A zip so broken that none of its entries could be listed: the archive findings say why. */
function unlisted(source: BundleSource): boolean {
  return source.kind === 'zip' && source.entries.length === 0 && source.findings.length > 0;
}

/** An entry whose bytes could not be had: not readable (encrypted, another method) or not inflatable. */
function unreadable(source: BundleSource, entry: BundleEntry): boolean {
  return !entry.readable || source.findings.some((f) => f.file === entry.path && f.ruleId === 'archive-corrupt-data');
}

function beginScans(entry: BundleEntry, context: ScanContext): ScanSession[] {
  const sessions: ScanSession[] = [];
  for (const scanner of contentScanners) if (scanner.accepts(entry, context)) sessions.push(scanner.begin(entry, context));
  return sessions;
}

function fanOut(sessions: ScanSession[]): (chunk: Buffer) => void {
  if (sessions.length === 0) return noop;
  if (sessions.length === 1) {
    const only = sessions[0]!;
    return (chunk) => only.write(chunk);
  }
  return (chunk) => {
    for (const session of sessions) session.write(chunk);
  };
}

/** A directive naming a rule that does not exist (most likely a typo) or a locked rule silences nothing. */
function unknownDirectiveIds(directives: readonly DisableDirective[]): Finding[] {
  const ids = registry.map((r) => r.id);
  const findings: Finding[] = [];
  for (const directive of directives) {
    for (const ruleId of directive.ruleIds) {
      if (lockedRuleIds.has(ruleId)) {
        // It would silence nothing: say so, rather than let the author believe the problem is handled.
        findings.push({ ruleId: UNKNOWN_DISABLE_DIRECTIVE, file: directive.file, line: directive.line, column: directive.column, data: { ruleId, locked: true } });
        continue;
      }
      if (ids.includes(ruleId)) continue;
      const suggestion = nearestName(ruleId, ids);
      findings.push({
        ruleId: UNKNOWN_DISABLE_DIRECTIVE,
        file: directive.file,
        line: directive.line,
        column: directive.column,
        data: { ruleId, ...(suggestion ? { suggestion } : {}) },
      });
    }
  }
  return findings;
}

/**
 * Drops the problems that a `pipeline-tool-disable-next-line` comment silences: one in the bundle's
 * file above the line where the problem sits there, or, for a problem placed at its source, one
 * in the source above the author's line.
 */
function withoutSilenced(problems: Problem[], directives: readonly DisableDirective[], sourceDirectives: readonly DisableDirective[]): Problem[] {
  if (directives.length === 0 && sourceDirectives.length === 0) return problems;
  const inBundle = silencedLines(directives);
  const inSources = silencedLines(sourceDirectives);
  const silences = (lines: Map<string, 'all' | Set<string>>, ruleId: string, file: string | undefined, line: number | undefined) => {
    if (file === undefined || line === undefined) return false;
    const rules = lines.get(`${line}:${file}`);
    return rules === 'all' || rules?.has(ruleId) === true;
  };
  return problems.filter((problem) => {
    if (lockedRuleIds.has(problem.ruleId)) return true;
    const built = problem.built ?? problem;
    if (silences(inBundle, problem.ruleId, built.file, built.line)) return false;
    return !(problem.built && silences(inSources, problem.ruleId, problem.file, problem.line));
  });
}

function noop(): void {}

/** Throws UsageError for an unknown rule id (naming the nearest) or setting; returns the settings. */
export function checkRuleSettings(settings: Readonly<Record<string, RuleSetting>>): Readonly<Record<string, RuleSetting>> {
  for (const [id, setting] of Object.entries(settings)) {
    const problem = ruleSettingProblem(id, setting, { locked: false });
    if (problem) throw new UsageError(problem);
  }
  const relaxed = Object.entries(settings).filter(([id, setting]) => setting !== 'error' && lockedRuleIds.has(id));
  if (relaxed.length > 0) throw new UsageError(lockedRuleMessage(relaxed.map(([id]) => id)));
  return settings;
}

/** Checks each override's patterns and settings as {@link checkRuleSettings} does the top level's. */
export function checkOverrides(overrides: readonly RuleOverride[]): readonly RuleOverride[] {
  overrides.forEach((override, index) => {
    if (!Array.isArray(override.files) || override.files.length === 0) throw new UsageError(`overrides[${index}].files must list at least one pattern.`);
    for (const pattern of override.files) {
      const problem = globProblem(pattern);
      if (problem) throw new UsageError(`overrides[${index}].files: "${String(pattern)}": ${problem}.`);
    }
    if (typeof override.rules !== 'object' || override.rules === null || Array.isArray(override.rules)) {
      throw new UsageError(`overrides[${index}].rules must be an object of rule ids and settings.`);
    }
    checkRuleSettings(override.rules);
  });
  return overrides;
}

/**
 * What is wrong with one rule setting: an unknown id (naming the nearest), a bad value, and unless
 * told otherwise a locked rule relaxed. Undefined when it is fine.
 */
export function ruleSettingProblem(id: string, setting: unknown, check: { locked: boolean } = { locked: true }): string | undefined {
  if (!registry.some((rule) => rule.id === id)) return unknownRuleMessage(id, registry.map((r) => r.id));
  if (setting !== 'off' && setting !== 'warn' && setting !== 'error') return `rule "${id}" can be set to off, warn or error, not ${JSON.stringify(setting) ?? String(setting)}.`;
  if (check.locked && setting !== 'error' && lockedRuleIds.has(id)) return lockedRuleMessage([id]);
  return undefined;
}

function lockedRuleMessage(ids: readonly string[]): string {
  return (
    `${ids.map((id) => `"${id}"`).join(', ')} cannot be turned off or down to a warning: ${ids.length === 1 ? 'it is a locked rule' : 'they are locked rules'} ` +
    "(a marketplace limit or the archive's integrity), which the platform enforces whatever our settings say. `pipeline-tool rules` marks them."
  );
}

/** Ids of the rules that no setting or comment may relax. */
export const lockedRuleIds: ReadonlySet<string> = new Set(registry.filter((rule) => rule.locked).map((rule) => rule.id));

/**
 * Storage that library code reaches inside a `try` whose `catch` takes the failure cannot break
 * the tool, so it is no problem. A library that so tests an API (i18next's language detector,
 * whose other uses wait on that test) is taken to guard every use of it: the storage findings of
 * one package (or one file, outside node_modules) and API are all guarded when one of them is.
 */
function guardedInLibraries(libraries: ReadonlyMap<RuleFinding, { package?: string }>): (hit: RuleFinding, library: { package?: string }) => boolean {
  const key = (hit: RuleFinding, library: { package?: string }) => `${library.package ?? hit.file}\n${String((hit.data as { api?: unknown }).api)}`;
  const tested = new Set<string>();
  for (const [hit, library] of libraries) if (hit.ruleId === BROWSER_STORAGE && (hit.data as { guarded?: unknown }).guarded === true) tested.add(key(hit, library));
  return (hit, library) => hit.ruleId === BROWSER_STORAGE && tested.has(key(hit, library));
}

const BROWSER_STORAGE = 'browser-storage';

/** A rule's hit, with the rule that made it. */
interface RuleFinding extends RuleHit<object> {
  rule: AnyRule;
  ruleId: string;
}

/** The sinks that frameworks compile the author's syntax into, by rule. */
const COMPILED_SINKS = new Map(registry.flatMap((rule) => (rule.compiled === undefined ? [] : [[rule.id, rule.compiled as readonly CompiledSink<object>[]] as const])));

/** The packages whose findings point at the author's code that turns them on, by rule. */
const LIBRARY_ENTRIES = new Map(registry.flatMap((rule) => (rule.entries === undefined ? [] : [[rule.id, rule.entries] as const])));

const unknownDirectiveRule = registry.find((rule) => rule.id === UNKNOWN_DISABLE_DIRECTIVE)!;

/** The problem of one hit; `placed` is its source, when a map placed it there. */
function toProblem(rule: AnyRule, severity: Severity, hit: RuleHit<object>, placed?: SourcePosition): Problem {
  // The wording is about what the bundle holds, so it names the built file.
  const problem: Problem = { ruleId: rule.id, severity, message: rule.message(hit.data, hit.file) };
  if (placed) {
    problem.file = placed.file;
    problem.line = placed.line;
    problem.column = placed.column;
    problem.built = { file: hit.file!, line: hit.line!, column: hit.column! };
  } else {
    if (hit.file !== undefined) problem.file = hit.file;
    if (hit.line !== undefined) problem.line = hit.line;
    if (hit.column !== undefined) problem.column = hit.column;
  }
  problem.data = hit.data as Record<string, unknown>;
  return problem;
}

/** Bundle-wide problems first, then by file, line and column; rule order breaks ties. */
function sortProblems(problems: Problem[]): Problem[] {
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => {
      const fa = a.problem.file ?? '';
      const fb = b.problem.file ?? '';
      if (fa !== fb) return fa < fb ? -1 : 1;
      return (a.problem.line ?? 0) - (b.problem.line ?? 0) || (a.problem.column ?? 0) - (b.problem.column ?? 0) || a.index - b.index;
    })
    .map(({ problem }) => problem);
}
