import { isNamespace } from './bridge-surface.js';
import type { ChainState } from './js-chain.js';
import { scopeBit, type JsFileState } from './js-file.js';
import { P_COMMA, P_DOT, P_LBRACE, P_LPAREN, P_OP, P_OPT_DOT, P_RBRACE, P_SEMI } from './js-lexer.js';
import { K_END, K_NAME, K_PUNCT } from './js-rule.js';
import type { JsWalker } from './js-walker.js';
import { moduleCondition, resolveExport } from './module-links.js';
import { resolveReference } from './references.js';
import { lookupWord, W } from './words.js';

/*
 * `import` and `export` statements at the top level of a script. An import binds names (which
 * shadow globals of those names); a name imported from another module of the bundle may be the
 * bridge, if that module exports it as such (`export const pipeline = window.pipeline`), so it
 * becomes an alias: a definite one when that module has been read, a conditional one otherwise,
 * whose findings wait for the end of the bundle. What the file exports that is (or may be) the
 * bridge is recorded for the modules that import it.
 */

const I_OFF = 0;
const I_START = 1; // right after `import`
const I_CLAUSE = 2; // the names before `from`
const I_FROM = 3; // after `from`: the module name

const X_OFF = 0;
const X_START = 1; // right after `export`
const X_LIST = 2; // inside `export { … }`
const X_AFTER_LIST = 3; // after its `}`: `from`, or the end of the statement
const X_FROM = 4; // `export { … } from`: the module name
const X_STAR = 5; // `export *`
const X_STAR_FROM = 6; // `export * from`: the module name
const X_DEFAULT = 7; // `export default`: the value's first token
const X_DEFAULT_CHAIN = 8; // the value, while it may still be one member chain

/** Names read per statement; a longer list's later names still bind but are not followed. */
const MAX_NAMES = 64;

interface Pair {
  /** The name in the other module (`default`, `*` for a namespace), or the local name exported. */
  outer: string;
  /** The name in this module, when read. */
  inner: string | undefined;
}

export class ModuleStatements {
  private importState = I_OFF;
  private exportState = X_OFF;
  private inBraces = false;
  private pendingAs = false;
  private pairs: Pair[] = [];
  private bits = 0;

  constructor(
    private readonly walker: JsWalker,
    private readonly file: JsFileState,
  ) {}

  /** A statement is being read: the walker must show it every token. */
  get busy(): boolean {
    return this.importState !== I_OFF || this.exportState !== X_OFF;
  }

  name(word: number, afterDot: boolean): void {
    const walker = this.walker;
    if (this.importState !== I_OFF) this.importName(word);
    else if (this.exportState !== X_OFF) this.exportName(word, afterDot);
    else if (!afterDot && walker.lexer.depth === 0) {
      if (word === W.import) this.begin(I_START, X_OFF);
      else if (word === W.export) this.begin(I_OFF, X_START);
    }
  }

  punct(kind: number, depth: number): void {
    if (this.importState !== I_OFF) this.importPunct(kind, depth);
    else if (this.exportState !== X_OFF) this.exportPunct(kind, depth);
  }

  /** A string, number, template or regular expression. */
  other(): void {
    if (this.importState !== I_OFF) {
      if (this.importState === I_FROM || this.importState === I_START) this.endImport(this.walker.stringValue());
      else if (this.inBraces && this.walker.tokenKind !== K_NAME) this.pair(this.walker.stringValue() ?? '');
      return;
    }
    switch (this.exportState) {
      case X_LIST:
        this.exportListName(this.walker.stringValue() ?? '');
        return;
      case X_FROM:
        this.reExport(this.walker.stringValue());
        return;
      case X_STAR_FROM: {
        const module = this.moduleOf(this.walker.stringValue());
        if (module) this.file.exportStar(module);
        this.exportState = X_OFF;
        return;
      }
      case X_AFTER_LIST:
        this.endLocalExports();
        return;
      default:
        this.exportState = X_OFF;
    }
  }

  /** A member chain ended: the value of `export default`, when it is one. */
  chainEnded(chain: ChainState): void {
    if (this.exportState !== X_DEFAULT_CHAIN) return;
    this.exportState = X_OFF;
    const walker = this.walker;
    const ends = walker.tokenKind === K_END || walker.newlineBefore || (walker.tokenKind === K_PUNCT && walker.tokenPunct === P_SEMI);
    if (!ends || !chain.rooted || chain.depth !== 0) return;
    const value = chain.snapshot();
    if (walker.aliasable(value.words)) this.file.exportBridge('default', { ...value, condition: chain.condition });
  }

  end(): void {
    if (this.importState === I_CLAUSE || this.importState === I_FROM) this.walker.scope.declare(0, this.bits);
    if (this.exportState === X_AFTER_LIST) this.endLocalExports();
    this.importState = I_OFF;
    this.exportState = X_OFF;
  }

  private begin(importState: number, exportState: number): void {
    this.importState = importState;
    this.exportState = exportState;
    this.inBraces = false;
    this.pendingAs = false;
    this.pairs = [];
    this.bits = 0;
  }

  // --- import --------------------------------------------------------------------------------------

  private importName(word: number): void {
    if (this.importState === I_START) this.importState = I_CLAUSE;
    if (this.importState !== I_CLAUSE) {
      this.importState = I_OFF;
      return;
    }
    if (word === W.from && !this.inBraces && !this.pendingAs) {
      this.importState = I_FROM;
      return;
    }
    if (word === W.as) {
      this.pendingAs = true;
      return;
    }
    const text = this.walker.nameGetter()();
    if (this.pendingAs) {
      // `a as b`, `* as ns`: only b is bound.
      this.pendingAs = false;
      const last = this.pairs[this.pairs.length - 1];
      if (last) last.inner = text;
      this.bits |= scopeBit(word);
      return;
    }
    this.pair(this.inBraces ? text : 'default', text);
    this.bits |= scopeBit(word);
  }

  private pair(outer: string, inner?: string): void {
    if (this.pairs.length < MAX_NAMES) this.pairs.push({ outer, inner });
  }

  private importPunct(kind: number, depth: number): void {
    const state = this.importState;
    if (state === I_START && (kind === P_LPAREN || kind === P_DOT)) {
      this.importState = I_OFF; // import(…), import.meta
      return;
    }
    if (state === I_START) this.importState = I_CLAUSE;
    if (kind === P_LBRACE && depth === 1) this.inBraces = true;
    else if (kind === P_RBRACE && depth === 1) this.inBraces = false;
    else if (kind === P_OP && !this.inBraces) this.pair('*'); // `* as ns`
    else if (kind !== P_COMMA || depth > 1 || state === I_FROM) {
      // Not an import clause after all (or its end, `;`): what was bound so far stays bound.
      this.walker.scope.declare(0, this.bits);
      this.importState = I_OFF;
    }
  }

  /** The module name: the names bound, and those that may be the bridge become aliases. */
  private endImport(specifier: string | undefined): void {
    this.importState = I_OFF;
    this.walker.scope.declare(0, this.bits);
    const module = this.moduleOf(specifier);
    if (!module) return;
    const file = this.file;
    const modules = file.bundle.modules;
    for (const { outer, inner } of this.pairs) {
      if (inner === undefined || outer === '*') continue;
      const word = wordOf(inner);
      // Names the checks know (`alert`) are only shadowed; `pipeline` may be the bridge itself.
      if (word >= 0 && word !== W.pipeline) continue;
      const found = resolveExport(modules, module, outer);
      if (found === null) continue;
      if (found) {
        file.addAlias(inner, { words: found.map(wordOf), texts: [...found], condition: 0 }, 0);
        continue;
      }
      // Not read yet: guess from the name (`quotes` is the namespace, anything else the bridge).
      const texts = isNamespace(outer) ? ['pipeline', outer] : ['pipeline'];
      const condition = file.addCondition(moduleCondition(modules, module, outer, texts));
      if (condition !== 0) file.addAlias(inner, { words: texts.map(wordOf), texts, condition }, 0);
    }
  }

  /** The bundle path of a relative module name, if the bundle has that file. */
  private moduleOf(specifier: string | undefined): string | undefined {
    if (specifier === undefined || !/^\.{1,2}\//.test(specifier)) return undefined;
    const path = resolveReference(this.file.file, specifier);
    return path !== undefined && this.file.bundle.index.exact.has(path) ? path : undefined;
  }

  // --- export --------------------------------------------------------------------------------------

  private exportName(word: number, afterDot: boolean): void {
    switch (this.exportState) {
      case X_START:
        // `export const …` is read by the declarations; `export function`, `class`: not the bridge.
        this.exportState = this.walker.nameGetter()() === 'default' ? X_DEFAULT : X_OFF;
        return;
      case X_LIST:
        if (word === W.as) this.pendingAs = true;
        else this.exportListName(this.walker.nameGetter()());
        return;
      case X_AFTER_LIST:
        if (word === W.from && !this.walker.newlineBefore) this.exportState = X_FROM;
        else {
          this.endLocalExports();
          this.name(word, afterDot);
        }
        return;
      case X_STAR:
        this.exportState = word === W.from ? X_STAR_FROM : X_OFF; // `* as ns from` is not followed
        return;
      case X_DEFAULT:
        this.exportState = X_DEFAULT_CHAIN;
        return;
      case X_DEFAULT_CHAIN:
        return;
      default:
        this.exportState = X_OFF;
    }
  }

  private exportListName(text: string): void {
    if (this.pendingAs) {
      this.pendingAs = false;
      const last = this.pairs[this.pairs.length - 1];
      if (last) last.inner = text;
    } else this.pair(text, text);
  }

  private exportPunct(kind: number, depth: number): void {
    switch (this.exportState) {
      case X_START:
        if (kind === P_LBRACE) this.exportState = X_LIST;
        else this.exportState = kind === P_OP ? X_STAR : X_OFF;
        return;
      case X_LIST:
        if (kind === P_RBRACE && depth === 1) this.exportState = X_AFTER_LIST;
        return;
      case X_AFTER_LIST:
        this.endLocalExports();
        return;
      case X_DEFAULT_CHAIN:
        if (kind !== P_DOT && kind !== P_OPT_DOT) this.exportState = X_OFF;
        return;
      default:
        this.exportState = X_OFF;
    }
  }

  /** `export { a, b as c }`: the file's own names, settled at its end (they may be declared below). */
  private endLocalExports(): void {
    this.exportState = X_OFF;
    // In an export list, `outer` is the local name and `inner` the name exported.
    for (const { outer, inner } of this.pairs) this.file.exportLocal(outer, inner ?? outer);
  }

  /** `export { a, b as c } from './x.js'`. */
  private reExport(specifier: string | undefined): void {
    this.exportState = X_OFF;
    const module = this.moduleOf(specifier);
    if (!module) return;
    for (const { outer, inner } of this.pairs) this.file.exportTarget(inner ?? outer, { module, name: outer });
  }
}

function wordOf(text: string): number {
  const bytes = Buffer.from(text);
  return lookupWord(bytes, 0, bytes.length);
}
