import type { BundleEntry } from '../shipment/source.js';
import { manifestObject, manifestString, type ManifestState } from '../manifest/read-manifest.js';
import { extensionOf } from '../paths.js';
import { CodeThreads, type Job, type JobResult } from './code-threads.js';
import { conditionalLater, FileReport, joinLater } from './file-report.js';
import { LibraryHead } from './library.js';
import { Gate } from './gate.js';
import { JsFileState } from './js-file.js';
import type { BundleFacts } from './js-rule.js';
import { JS_SYNTAX } from './rule-ids.js';
import { JsWalker } from './js-walker.js';
import { moduleCondition, type ModuleExports } from './module-links.js';
import { bundleIndex, type BundleIndex } from './references.js';
import type { ContentScanner, ScanContext, ScanOutput, ScanSession } from './scanner.js';
import { checkScript, isMinifiedBuild } from './script-syntax.js';
import { TriggerSearch } from './trigger.js';

/*
 * Tokenizing every byte of a large minified bundle costs more than inflating it, but every check
 * needs one of a few names to be present (`pipeline`, `alert`, `innerHTML`, `localStorage`, …).
 * So a JavaScript file first goes through a byte-level search for those names (trigger.ts). Its
 * chunks are held (they are not copied) until one turns up; then the tokenizer reads the held
 * chunks and the rest of the file. A file that never names one of them cannot have a finding and
 * is never tokenized.
 */

export { HOLD_LIMIT } from './gate.js';

/** The manifest's tool type as the host will see it: a missing "type" means standalone. */
export function effectiveToolType(manifest: ManifestState): { toolType: string | undefined; declared: boolean } {
  if (!manifestObject(manifest)) return { toolType: undefined, declared: false };
  const type = manifestString(manifest, 'type');
  if (type === undefined) return { toolType: 'standalone', declared: false };
  return { toolType: type === 'standalone' || type === 'quoting_extension' ? type : undefined, declared: true };
}

const JQUERY_FILE = /(^|\/)jquery([.-][\w.-]*)?\.js$/i;
const facts = new WeakMap<readonly BundleEntry[], BundleFacts>();

/** What the scripts' rules may want to know of the bundle, worked out once per bundle. */
export function bundleFacts(files: readonly BundleEntry[]): BundleFacts {
  let found = facts.get(files);
  if (!found) {
    let scriptBytes = 0;
    for (const file of files) if (extensionOf(file.path) === '.js') scriptBytes += file.declaredSize;
    found = { index: bundleIndex(files), hasJquery: files.some((f) => JQUERY_FILE.test(f.path)), scriptModes: new Map(), modules: new Map(), scriptBytes };
    facts.set(files, found);
  }
  return found;
}

/** The scripts of one file: what they share, and a walker per script. */
export function jsFileState(entry: BundleEntry, context: ScanContext, report: FileReport): JsFileState {
  const { toolType, declared } = effectiveToolType(context.manifest);
  return new JsFileState(report, entry.path, toolType, declared, bundleFacts(context.files));
}

/** Starts reading one script of the file (a .js file, or a page's inline script at `origin`, an inline module if `module`). */
export function beginScript(state: JsFileState, origin?: { line: number; column: number }, module = false): JsWalker {
  const walker = new JsWalker(state, origin, module);
  state.walker = walker;
  return walker;
}

/** No bundle around a script read on its own: nothing to refer to, no jQuery file, no modules read. */
const NO_FILES: readonly BundleEntry[] = [];

/**
 * What the code rules find in one script given whole as text, read on its own as `file` (the
 * ESLint plugin's way in: an author's file, type-stripped or compiled to JavaScript). The same
 * detectors as validate's pass, through the same walker; positions are 1-based, columns in
 * characters. What depends on the rest of a bundle is left out: a finding made through a name
 * imported from another module waits for that module, which only validate's pass over the built
 * bundle reads.
 */
export function scanScriptText(text: string, file: string, toolType: { toolType: string | undefined; declared: boolean }): ScanOutput {
  const report = new FileReport(file);
  const state = new JsFileState(report, file, toolType.toolType, toolType.declared, bundleFacts(NO_FILES));
  const walker = beginScript(state);
  walker.lexer.write(Buffer.from(text, 'utf8'));
  walker.lexer.end();
  state.flush();
  const { findings, directives } = report.finish();
  return { findings, directives };
}

export const jsScanner: ContentScanner = {
  name: 'javascript',
  accepts: (entry) => extensionOf(entry.path) === '.js',
  begin: (entry, context) => new JsSession(entry, context),
};

/** A script larger than this is not parsed by js-syntax: holding it whole would cost too much memory. */
export const SYNTAX_HOLD_LIMIT = 16 * 1024 * 1024;

/**
 * The code checks' reading of one script file: the trigger search holds its chunks until one of
 * the names the checks look for turns up, then the walker reads them and the rest.
 */
class ScriptReader {
  private walker: JsWalker | undefined;
  private readonly gate: Gate;

  constructor(private readonly state: JsFileState) {
    const trigger = new TriggerSearch(state.bundle.hasJquery);
    this.gate = new Gate(
      (chunk) => trigger.found(chunk),
      () => {
        const walker = beginScript(state);
        this.walker = walker;
        return (chunk) => walker.lexer.write(chunk);
      },
    );
  }

  write(chunk: Buffer): void {
    this.gate.write(chunk);
  }

  end(): void {
    if (this.gate.close() && this.walker) {
      this.walker.lexer.end();
      this.state.flush();
    }
  }
}

/**
 * The exports of the bundle's module files as a job sees them: what was known when it started,
 * with the module files it looked up and did not find noted, and its own file's exports kept apart.
 */
class ModulesSeen extends Map<string, ModuleExports> {
  readonly missed = new Set<string>();

  constructor(private readonly known: ReadonlyMap<string, ModuleExports>) {
    super();
  }

  override get(key: string): ModuleExports | undefined {
    const own = super.get(key);
    if (own) return own;
    const found = this.known.get(key);
    if (!found) this.missed.add(key);
    return found;
  }

  /** What the job's own file exports, if it was read as a module file. */
  own(file: string): ModuleExports | undefined {
    return super.get(file);
  }
}

/** What a job needs to know of its bundle (code-threads.ts). */
export interface JobBundle {
  toolType: string | undefined;
  declared: boolean;
  index: BundleIndex;
  hasJquery: boolean;
  scriptBytes: number;
}

/**
 * Checks one script file as a job, on whichever thread: the same reading as on one thread, against
 * the module exports known now, recording what it looked up in vain and what it would add.
 */
export function runScriptJob(job: Job, bundle: JobBundle, known: ReadonlyMap<string, ModuleExports>): JobResult {
  const report = new FileReport(job.file);
  const modules = new ModulesSeen(known);
  const facts: BundleFacts = { index: bundle.index, hasJquery: bundle.hasJquery, scriptModes: new Map(), modules, scriptBytes: bundle.scriptBytes };
  const reader = new ScriptReader(new JsFileState(report, job.file, bundle.toolType, bundle.declared, facts));
  for (const chunk of job.chunks) reader.write(chunk);
  reader.end();
  const { findings, directives } = report.finish();
  const conditional = report.conditions().map(({ finding, condition }) => ({ finding, module: condition.module, name: condition.name, texts: condition.texts }));
  return { findings, directives, conditional, exports: modules.own(job.file), modes: [...facts.scriptModes], missed: [...modules.missed] };
}

const threadsOfBundle = new WeakMap<readonly BundleEntry[], CodeThreads | null>();

/** The threads sharing a large bundle's script files, started with its first file; undefined for an ordinary bundle. */
export function codeThreads(context: ScanContext): CodeThreads | undefined {
  let threads = threadsOfBundle.get(context.files);
  if (threads === undefined) {
    const facts = bundleFacts(context.files);
    const { toolType, declared } = effectiveToolType(context.manifest);
    const bundle: JobBundle = { toolType, declared, index: facts.index, hasJquery: facts.hasJquery, scriptBytes: facts.scriptBytes };
    threads = CodeThreads.start(facts, { toolType, declared }, context.files, (job, known) => runScriptJob(job, bundle, known)) ?? null;
    threadsOfBundle.set(context.files, threads);
  }
  return threads ?? undefined;
}

/** Stops the threads of a bundle whose files have all been merged. */
export function closeCodeThreads(files: readonly BundleEntry[]): void {
  threadsOfBundle.get(files)?.close();
}

class JsSession implements ScanSession {
  /** The whole file, for the syntax check (held, not copied, until the end); undefined past the limit. */
  private chunks: Buffer[] | undefined;
  private held = 0;
  private readonly report: FileReport;
  private readonly state: JsFileState;
  private readonly reader: ScriptReader | undefined;
  /** The threads that check this file as a job, and its chunks for them; else the reader here. */
  private readonly threads: CodeThreads | undefined;
  private job: Buffer[] = [];
  private readonly head = new LibraryHead();

  constructor(
    private readonly entry: BundleEntry,
    context: ScanContext,
  ) {
    this.report = new FileReport(entry.path);
    this.state = jsFileState(entry, context, this.report);
    if (!context.ruleOff?.(JS_SYNTAX, entry.path)) this.chunks = [];
    const threads = codeThreads(context);
    if (threads?.takes(entry.declaredSize)) this.threads = threads;
    else this.reader = new ScriptReader(this.state);
  }

  write(chunk: Buffer): void {
    if (!this.head.full) this.head.write(chunk);
    if (this.chunks) {
      this.held += chunk.length;
      if (this.held > SYNTAX_HOLD_LIMIT) this.chunks = undefined;
      else this.chunks.push(chunk);
    }
    if (this.reader) this.reader.write(chunk);
    else this.job.push(chunk);
  }

  end(complete: boolean): ScanOutput {
    // A file cut short by the budget would show an error that is not in it.
    const chunks = this.chunks;
    this.chunks = undefined;
    const syntax = complete && chunks && !isMinifiedBuild(chunks) ? chunks : undefined;
    const facts = this.state.bundle;
    const path = this.entry.path;
    const withSyntax = (output: ScanOutput): ScanOutput => {
      if (syntax) output.later = joinLater(output.later, checkScript(Buffer.concat(syntax), { file: path, facts }, path));
      return output;
    };
    if (this.threads) {
      const job = this.job;
      this.job = [];
      const deferred = this.threads.submit({ file: path, chunks: job }, (result) => {
        const conditional = result.conditional.map(({ finding, module, name, texts }) => ({ finding, condition: moduleCondition(facts.modules, module, name, texts) }));
        const output: ScanOutput = { findings: result.findings, directives: result.directives };
        const later = conditionalLater(conditional);
        if (later) output.later = later;
        return withSyntax(output);
      });
      // Taken in bundle order, maybe after it fails: the error is met there, not left unhandled now.
      deferred.catch(() => undefined);
      return { findings: [], directives: [], library: this.head.test(), deferred };
    }
    this.reader!.end();
    const output = this.report.finish();
    output.library = this.head.test();
    return withSyntax(output);
  }
}
