import type { BundleEntry } from '../shipment/source.js';
import { manifestObject, manifestString, type ManifestState } from '../manifest/read-manifest.js';
import { extensionOf } from '../paths.js';
import { FileReport, joinLater } from './file-report.js';
import { LibraryHead } from './library.js';
import { Gate } from './gate.js';
import { JsFileState } from './js-file.js';
import type { BundleFacts } from './js-rule.js';
import { JS_SYNTAX } from './rule-ids.js';
import { JsWalker } from './js-walker.js';
import { bundleIndex } from './references.js';
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

class JsSession implements ScanSession {
  /** The whole file, for the syntax check (held, not copied, until the end); undefined past the limit. */
  private chunks: Buffer[] | undefined;
  private held = 0;
  private readonly report: FileReport;
  private readonly state: JsFileState;
  private walker: JsWalker | undefined;
  private readonly gate: Gate;
  private readonly head = new LibraryHead();

  constructor(
    private readonly entry: BundleEntry,
    context: ScanContext,
  ) {
    this.report = new FileReport(entry.path);
    this.state = jsFileState(entry, context, this.report);
    if (!context.ruleOff?.(JS_SYNTAX, entry.path)) this.chunks = [];
    const trigger = new TriggerSearch(this.state.bundle.hasJquery);
    this.gate = new Gate(
      (chunk) => trigger.found(chunk),
      () => {
        const walker = beginScript(this.state);
        this.walker = walker;
        return (chunk) => walker.lexer.write(chunk);
      },
    );
  }

  write(chunk: Buffer): void {
    if (!this.head.full) this.head.write(chunk);
    if (this.chunks) {
      this.held += chunk.length;
      if (this.held > SYNTAX_HOLD_LIMIT) this.chunks = undefined;
      else this.chunks.push(chunk);
    }
    this.gate.write(chunk);
  }

  end(complete: boolean): ScanOutput {
    if (this.gate.close() && this.walker) {
      this.walker.lexer.end();
      this.state.flush();
    }
    const output = this.report.finish();
    output.library = this.head.test();
    // A file cut short by the budget would show an error that is not in it.
    const chunks = this.chunks;
    this.chunks = undefined;
    if (complete && chunks && !isMinifiedBuild(chunks)) output.later = joinLater(output.later, checkScript(Buffer.concat(chunks), { file: this.entry.path, facts: this.state.bundle }, this.entry.path));
    return output;
  }
}
