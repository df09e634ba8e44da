import type { LinePosition } from '../problem.js';
import { rules } from '../rules/index.js';
import type { FileReport } from './file-report.js';
import { decodeRange } from './chars.js';
import { isGlobalObject } from './js-chain.js';
import type { ExportTarget, ModuleCondition, ModuleExports } from './module-links.js';
import { ScopedValues } from './scoped-values.js';
import { P_COLON, P_COMMA, P_MINUS, P_PLUS, P_RBRACE, P_RBRACKET, P_RPAREN, P_SEMI, P_TEMPLATE_CLOSE, P_TEMPLATE_OPEN } from './js-lexer.js';
import { K_END, K_NAME, K_NUMBER, K_PUNCT, K_STRING, K_TEMPLATE_END, K_TEMPLATE_START } from './js-rule.js';
import type { BundleFacts, JsDetector, JsRuleContext, JsRuleHandlers, Literal, Token } from './js-rule.js';
import { BRIDGE_RULE_IDS } from './rule-ids.js';
import type { JsWalker } from './js-walker.js';
import { W, WORDS } from './words.js';

/*
 * What the scripts of one file share: the rules' handlers (a page's inline scripts run in one
 * global scope, so what one declares the others see), the top-level declarations, the uses of
 * globals waiting for the end of the file (a function declared further down still shadows), and the
 * aliases of the bridge.
 */

const detectors: readonly JsDetector[] = rules.flatMap((rule) => (rule.js ? [rule.js] : []));

/** Which detectors (a bit each) want chains that hold a word, and object keys that are a word. */
export const CHAIN_INTEREST = new Uint32Array(WORDS.length);
export const PROPERTY_INTEREST = new Uint32Array(WORDS.length);
export const PROPERTY_BIT = new Uint32Array(WORDS.length);
detectors.forEach((detector, index) => {
  for (const word of detector.chainWords ?? []) CHAIN_INTEREST[W[word]] = CHAIN_INTEREST[W[word]]! | (1 << index);
  for (const word of detector.propertyWords ?? []) PROPERTY_INTEREST[W[word]] = PROPERTY_INTEREST[W[word]]! | (1 << index);
});
let propertyBits = 0;
for (let word = 0; word < WORDS.length; word++) if (PROPERTY_INTEREST[word]) PROPERTY_BIT[word] = 1 << propertyBits++;

/**
 * Names whose meaning a declaration can change: a script's own `alert` or `localStorage` is not
 * the browser's. Each has a bit in the scope masks.
 */
const SCOPED: readonly number[] = [
  W.alert, W.confirm, W.prompt, W.localStorage, W.sessionStorage, W.indexedDB, W.document, W.window, W.globalThis,
  W.self, W.parent, W.top, W.frames, W.pipeline, W.$, W.jQuery, W.Object,
  // Constants a shorthand property may take its value from (`const qty = 0; ... { qty }`).
  W.qty, W.unitPrice, W.taxRate, W.discountPercent, W.lineType,
];
export const SCOPE_BIT = new Uint32Array(WORDS.length);
SCOPED.forEach((word, index) => (SCOPE_BIT[word] = 1 << index));

/** The scope bit of a word, 0 for a name that is not one (-1): a negative index would leave the typed array's fast path. */
export function scopeBit(word: number): number {
  return word >= 0 ? SCOPE_BIT[word]! : 0;
}

/** Names imported from modules not read yet, and names exported by list, followed per file. */
const MAX_CONDITIONS = 10_000;

/** A use of a global, reported once the scopes around it are known not to declare that name. */
export interface Use {
  bit: number;
  ruleId: string;
  line: number;
  column: number;
  data: Record<string, unknown>;
  placeAt?: LinePosition | undefined;
}

export interface Alias {
  words: number[];
  texts: string[];
  /** For a name imported from a module not read yet: the index of the condition its findings wait on, else 0. */
  condition: number;
}

/** A `const` set to a plain literal, and the depth of the frame that declared it. */
export interface Constant {
  value: Literal;
  depth: number;
}

export class JsFileState {
  /** Handlers of each detector, by the detector's bit. */
  readonly handlers: JsRuleHandlers[];
  /** Names declared at the top level, and uses of globals not yet settled. */
  rootDeclared = 0;
  readonly rootUses: Use[] = [];
  /** Variables that stand for part of the bridge (`const q = window.pipeline.quotes`), by frame. */
  readonly aliases = new ScopedValues<string, Alias>();
  /** First bytes of the aliases' names, to skip the map for every other name. */
  readonly aliasFirstBytes = new Uint8Array(256);
  /** `const qty = 0` and the like, by word and frame. */
  readonly constants = new ScopedValues<number, Constant>();
  /** Conditions of findings made through imported names (index 0 is none). */
  readonly conditions: Array<ModuleCondition | undefined> = [undefined];
  /** What this file exports that may be the bridge, when it is a module file. */
  private exports: ModuleExports | undefined;
  /** `export { a as b }` of the file's own names, settled at its end. */
  private readonly localExports: Array<{ local: string; exported: string }> = [];
  /** The walker of the script being read. */
  walker: JsWalker | undefined;

  constructor(
    readonly report: FileReport,
    readonly file: string,
    readonly toolType: string | undefined,
    readonly toolTypeDeclared: boolean,
    readonly bundle: BundleFacts,
  ) {
    const context = this.context();
    this.handlers = detectors.map((detector) => detector.create(context));
  }

  addAlias(name: string, alias: Alias, depth: number): void {
    this.aliases.set(name, alias, depth);
    this.aliasFirstBytes[Buffer.from(name)[0]!] = 1;
  }

  /**
   * A declaration of a name that is not the bridge hides an alias of that name in its frame. The
   * name (its bytes) is decoded only if an alias could have it: most names start with a byte no
   * alias starts with, and hiding what no alias is named changes nothing.
   */
  hideAlias(word: number, bytes: Uint8Array | undefined, start: number, end: number, depth: number): void {
    if (this.aliases.size === 0 || (word >= 0 && word !== W.pipeline)) return;
    if (bytes && start < end && this.aliasFirstBytes[bytes[start]!] === 0) return;
    this.aliases.set(bytes ? decodeRange(bytes, start, end) : '', undefined, depth);
  }

  /** The index of a new condition, or 0 (none) past MAX_CONDITIONS: a hostile file could import without end. */
  addCondition(condition: ModuleCondition): number {
    if (this.conditions.length > MAX_CONDITIONS) return 0;
    this.conditions.push(condition);
    return this.conditions.length - 1;
  }

  /** `export const name = <value>` where the value is part of the bridge (`window.pipeline`). */
  exportBridge(name: string, value: { words: readonly number[]; texts: readonly string[]; condition: number }): void {
    const condition = this.conditions[value.condition];
    if (condition) {
      // Re-exporting what was imported: only the imported name itself is followed.
      if (value.words.length === condition.texts.length) this.exportTarget(name, { module: condition.module, name: condition.name });
      return;
    }
    let g = 0;
    while (g < value.words.length && isGlobalObject(value.words[g]!)) g++;
    this.exportTarget(name, { texts: value.texts.slice(g) });
  }

  exportTarget(name: string, target: ExportTarget): void {
    this.moduleExports()?.names.set(name, target);
  }

  exportStar(module: string): void {
    this.moduleExports()?.stars.push(module);
  }

  exportLocal(local: string, exported: string): void {
    if (this.localExports.length < MAX_CONDITIONS) this.localExports.push({ local, exported });
  }

  /** At the end of the file: the uses no top-level declaration shadows are findings. */
  flush(): void {
    for (const use of this.rootUses) if ((this.rootDeclared & use.bit) === 0) this.report.add(use.ruleId, use.line, use.column, use.data, undefined, use.placeAt);
    this.rootUses.length = 0;
    const exports = this.moduleExports();
    if (!exports) return;
    for (const { local, exported } of this.localExports) {
      const alias = this.aliases.get(local);
      if (alias) this.exportBridge(exported, alias);
      else if (local === 'pipeline' && (this.rootDeclared & SCOPE_BIT[W.pipeline]!) === 0) this.exportTarget(exported, { texts: ['pipeline'] });
    }
    this.localExports.length = 0;
    this.bundle.modules.set(this.file, exports);
  }

  /** Only a script file can be imported, so only its exports are recorded. */
  private moduleExports(): ModuleExports | undefined {
    if (!this.file.endsWith('.js')) return undefined;
    return (this.exports ??= { names: new Map(), stars: [] });
  }

  private context(): JsRuleContext {
    const walker = (): JsWalker => this.walker!;
    return {
      file: this.file,
      toolType: this.toolType,
      toolTypeDeclared: this.toolTypeDeclared,
      bundle: this.bundle,
      report: (ruleId, line, column, data, placeAt) => {
        if (data.guarded === true) walker().noteGuarded(data);
        this.report.add(ruleId, line, column, data, BRIDGE_RULE_IDS.has(ruleId) ? this.conditions[walker().reportCondition()] : undefined, placeAt);
      },
      reportUse: (word, ruleId, line, column, data, placeAt) => {
        if (data.guarded === true) walker().noteGuarded(data);
        walker().scope.use({ bit: scopeBit(word), ruleId, line, column, data, placeAt });
      },
      tagCall: (tag) => walker().tagCall(tag),
      watch: (watcher) => walker().watch(watcher),
      readLiteral: (done) => {
        // A shorthand property (`{ qty }`) has no literal after it: its value is a constant's, if any.
        const shorthand = walker().shorthand;
        if (shorthand >= 0) done(walker().constantValue(shorthand));
        else walker().watch(literalReader(done));
      },
      readArguments: (index, bad) => walker().watch(argumentReader(walker().depth(), index, bad)),
      onObjectEnd: (done) => walker().onObjectEnd(done),
      propertyBit: (word) => PROPERTY_BIT[word] ?? 0,
      scopeMark: (outer) => walker().scopeMark(outer),
      inScope: (mark) => walker().inScope(mark),
      guarded: () => walker().guarded,
    };
  }
}

function isTerminator(punct: number): boolean {
  return punct === P_SEMI || punct === P_COMMA || punct === P_RPAREN || punct === P_RBRACKET || punct === P_RBRACE || punct === P_TEMPLATE_CLOSE || punct === P_COLON;
}

const R_FIRST = 0;
const R_SIGNED = 1;
const R_TEMPLATE = 2;
const R_AFTER = 3;
const R_VOID = 4;

const EMPTY: Literal = { kind: 'empty' };

/** Reads one expression: a plain literal followed by its end, or anything else. */
function literalReader(done: (value: Literal | undefined) => void): (token: Token) => boolean {
  let started = false;
  let state = R_FIRST;
  let sign = 1;
  let value: Literal | undefined;
  return (token) => {
    if (!started) {
      started = true; // the `=`, `:` or `(` before the value
      return true;
    }
    switch (state) {
      case R_FIRST:
      case R_SIGNED:
        if (token.kind === K_PUNCT && state === R_FIRST && (token.punct === P_MINUS || token.punct === P_PLUS)) {
          state = R_SIGNED;
          if (token.punct === P_MINUS) sign = -1;
          return true;
        }
        if (token.kind === K_NAME && state === R_FIRST && (token.word === W.null || token.word === W.undefined)) value = EMPTY;
        else if (token.kind === K_NAME && state === R_FIRST && token.word === W.void) {
          state = R_VOID;
          return true;
        } else if (token.kind === K_NUMBER) value = { kind: 'number', value: sign * token.numberValue() };
        else if (token.kind === K_STRING && state === R_FIRST) value = { kind: 'string', value: token.stringValue() ?? '' };
        else if (token.kind === K_TEMPLATE_START && state === R_FIRST) {
          state = R_TEMPLATE;
          return true;
        } else {
          done(undefined);
          return false;
        }
        state = R_AFTER;
        return true;
      case R_VOID:
        // `void 0`, as minifiers write undefined; `void f()` is not nothing.
        if (token.kind !== K_NUMBER) {
          done(undefined);
          return false;
        }
        value = EMPTY;
        state = R_AFTER;
        return true;
      case R_TEMPLATE:
        if (token.kind === K_PUNCT && token.punct === P_TEMPLATE_OPEN) {
          done(undefined);
          return false;
        }
        if (token.kind === K_TEMPLATE_END) {
          value = { kind: 'string', value: token.stringValue() ?? '' };
          state = R_AFTER;
        }
        return true;
      default:
        // A literal is whole when the expression ends right after it.
        done(token.kind === K_END || token.newlineBefore || (token.kind === K_PUNCT && isTerminator(token.punct)) ? value : undefined);
        return false;
    }
  };
}

const A_FIRST = 0;
const A_TEMPLATE = 1;
const A_AFTER = 2;
const A_SKIP = 3;

/** Watches a call's arguments from its `(` at `depth`: `bad` when a checked one is not a literal. */
function argumentReader(depth: number, target: number, bad: () => void): (token: Token) => boolean {
  let started = false;
  let index = 0;
  let state = target < 0 || target === 0 ? A_FIRST : A_SKIP;
  const next = (): boolean => {
    index++;
    state = target < 0 || target === index ? A_FIRST : A_SKIP;
    return true;
  };
  const fail = (): boolean => {
    bad();
    return false;
  };
  return (token) => {
    if (!started) {
      started = true;
      return true;
    }
    const atCall = token.depth === depth && token.kind === K_PUNCT;
    const closes = atCall && token.punct === P_RPAREN;
    const comma = atCall && token.punct === P_COMMA;
    if (token.kind === K_END) return false;
    switch (state) {
      case A_FIRST:
        if (closes) return false;
        if (token.kind === K_STRING) state = A_AFTER;
        else if (token.kind === K_TEMPLATE_START) state = A_TEMPLATE;
        else return fail();
        return true;
      case A_TEMPLATE:
        if (token.kind === K_PUNCT && token.punct === P_TEMPLATE_OPEN) return fail();
        if (token.kind === K_TEMPLATE_END) state = A_AFTER;
        return true;
      case A_AFTER:
        if (closes) return false;
        return comma ? next() : fail();
      default:
        if (closes) return false;
        return comma ? next() : true;
    }
  };
}

