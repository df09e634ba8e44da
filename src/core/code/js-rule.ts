import type { LinePosition } from '../problem.js';
import type { ModuleExports } from './module-links.js';
import type { BundleIndex } from './references.js';
import type { Word } from './words.js';

/*
 * How a code rule reads JavaScript. The tokenizer makes one pass over a script; the walker
 * (js-walker.ts) builds, from its tokens, the few shapes that rules look at (member chains such as
 * `window.pipeline.quotes.addLines(`, object-literal properties, declarations) and hands each only
 * to the rules that asked for it by name. A rule's file (src/core/rules/<id>.ts) holds its
 * detection as a `js` detector: the names it wants, and `create(context)` returning its handlers,
 * much like an eslint rule over a token stream instead of a syntax tree.
 */

// How a member chain ended: the token after its last name.
export const END_CALL = 1; // `(`
export const END_ASSIGN = 2; // `=`
export const END_PLUS_ASSIGN = 3; // `+=`
export const END_ARROW = 4; // `=>`: the name was an arrow function's parameter
export const END_KEY = 5; // `:` after `{` or `,`: the name was an object key
export const END_OTHER = 6;

// Token kinds, for watchers.
export const K_NAME = 1;
export const K_STRING = 2;
export const K_NUMBER = 3;
export const K_PUNCT = 4;
export const K_TEMPLATE_START = 5;
export const K_TEMPLATE_END = 6;
export const K_REGEX = 7;
export const K_END = 8;

// Tags a rule may put on the call whose `(` was just read; nested brackets inherit them.
export const TAG_QUOTES_CREATE = 1;
export const TAG_QUOTES_ADD_LINES = 2;
export const TAG_OBJECT_ASSIGN = 3;

/** A member chain: `a.b['c'].d`, read as names. Valid only during the handler call. */
export interface Chain {
  /** Number of names (the first included). */
  readonly length: number;
  /**
   * True when the first name stands alone (`window.x`); false when it is a member of something
   * the walker does not name (`f().x`, `this.x`, `#x`, `a[0].x`).
   */
  readonly rooted: boolean;
  /** For a chain that is not rooted and follows a call (`$(x).html`): the first word of the called chain, or -1. */
  readonly receiver: number;
  /** How the chain ended (END_*). */
  readonly end: number;
  /** The chain was the last element of a parenthesised expression that is then called: `(0, alert)(...)`. */
  readonly indirect: boolean;
  /**
   * The chain is a whole argument of a call (`promise.catch(alert)`, `f(x, window.confirm)`): it
   * follows the call's `(` or a `,` and ends at `,` or `)`. A parameter list looks the same until
   * its `)`; a use reported with `reportUse` is dropped when it turns out to be one.
   */
  readonly argument: boolean;
  /** The first name was a variable set from another chain (`const q = pipeline.quotes`), now read through it. */
  readonly aliased: boolean;
  /** How many of the names the alias stood for. */
  readonly aliasLength: number;
  /**
   * The plain name that the expression starting with this chain is assigned to (`t =
   * document.createElement(...)`, `const t = ...`), or ''.
   */
  assigned(): string;
  /**
   * For a chain that is not rooted and follows a plain name and a `.` (`t.innerHTML`, `t` being no
   * name the checks know, so it starts no chain): that name, else ''.
   */
  owner(): string;
  /** WORDS number of name `i`, or -1. */
  word(i: number): number;
  /** Text of name `i`. */
  text(i: number): string;
  line(i: number): number;
  column(i: number): number;
  /** Number of leading names that stand for the global object (`window`, `self.top`...). */
  globalPrefix(): number;
}

/**
 * A plain literal as written: a number (with its sign), the text of a string or of a template
 * without `${...}`, or nothing (`null`, `undefined`, `void 0`).
 */
export type Literal = { kind: 'number'; value: number } | { kind: 'string'; value: string } | { kind: 'empty' };

/** An object-literal property whose key a rule asked for, at its `:`. */
export interface Property {
  readonly key: number;
  readonly line: number;
  readonly column: number;
  /** The tag of the call this object is an argument of, directly (`Object.assign(el, {...})`). */
  readonly callTag: number;
  /** The nearest tag of any enclosing call (`quotes.create({ lines: [{...}] })`). */
  readonly contextTag: number;
  /** The object is itself an argument of a call: `h('div', { innerHTML: html })`. */
  readonly argument: boolean;
}

/** `const|let|var name = init` or one plain element of `const { key: name } = init`. */
export interface Declarator {
  /** The key of the destructured element, or undefined for a plain `name = ...`. */
  readonly key: string | undefined;
  readonly keyWord: number;
  readonly name: string;
  readonly line: number;
  readonly column: number;
  /** The initializer when it is one member chain, as names; undefined otherwise. */
  readonly init: { readonly words: readonly number[]; readonly texts: readonly string[] } | undefined;
}

/** The token a watcher is shown. */
export interface Token {
  readonly kind: number;
  /** Punctuator kind (js-lexer's P_*) for K_PUNCT. */
  readonly punct: number;
  /** WORDS number for K_NAME, else -1. */
  readonly word: number;
  readonly depth: number;
  readonly newlineBefore: boolean;
  /** The value of a K_STRING, or of a K_TEMPLATE_END without `${...}`, when at most 64 bytes. */
  stringValue(): string | undefined;
  /** True for a K_TEMPLATE_END whose template had no `${...}`. */
  plainTemplate(): boolean;
  numberValue(): number;
  line(): number;
  /** Column of the token's first character (strings and templates: the opening quote or backtick). */
  column(): number;
}

/** What the bundle around the script holds, for rules that depend on it. */
export interface BundleFacts {
  readonly index: BundleIndex;
  /** A file of the bundle is jQuery (by its name). */
  readonly hasJquery: boolean;
  /** How pages and modules load each script file, as far as read so far (module wins). */
  readonly scriptModes: Map<string, 'classic' | 'module'>;
  /** What the module files read so far export that may be the bridge. */
  readonly modules: Map<string, ModuleExports>;
  /** Bytes of .js files in the bundle, as their headers declare. */
  readonly scriptBytes: number;
}

export interface JsRuleContext {
  /** Path of the file being read (a page, for its inline scripts). */
  readonly file: string;
  /** The tool type the manifest gives ('standalone' also when "type" is missing), when known. */
  readonly toolType: string | undefined;
  readonly toolTypeDeclared: boolean;
  readonly bundle: BundleFacts;
  /** `placeAt`: where a source map is asked about the finding, when not at `line`:`column` (Finding.placeAt). */
  report(ruleId: string, line: number, column: number, data: Record<string, unknown>, placeAt?: LinePosition): void;
  /**
   * Reports a use of the global `word` (a WORDS number): dropped if the script declares that name
   * in the scope where it is used (a parameter, a variable, a function, an import).
   */
  reportUse(word: number, ruleId: string, line: number, column: number, data: Record<string, unknown>, placeAt?: LinePosition): void;
  /** Tags the call whose `(` was just read (from a chain handler with END_CALL). */
  tagCall(tag: number): void;
  /** Shows every following token to `watcher` until it returns false. */
  watch(watcher: (token: Token) => boolean): void;
  /**
   * Reads the expression that starts with the next token: `done` gets its value when it is one
   * plain literal, undefined when it is anything else. Called after `=`, `:` or `(`.
   */
  readLiteral(done: (value: Literal | undefined) => void): void;
  /**
   * After a call's `(`: `bad` is called once if an argument (argument `index`, or any when -1) is
   * not a plain literal.
   */
  readArguments(index: number, bad: () => void): void;
  /** From a property handler: `done` gets the keys the object had (bits of `propertyBit`) at its `}`. */
  onObjectEnd(done: (keys: number) => void): void;
  /** The bit of a property word in the masks given to onObjectEnd. */
  propertyBit(word: number): number;
  /**
   * A mark of the innermost bracket frame open now, or of the one `outer` levels out (1 from a
   * chain that ended at a call's `(`, which is open by then), for {@link inScope}.
   */
  scopeMark(outer?: number): number;
  /** True while the frame that `mark` was taken in is still open (the current point is inside it). */
  inScope(mark: number): boolean;
  /**
   * True when the current point is inside a `try` block, outside any function written there: what
   * throws here is caught. A finding whose data has `guarded: true` loses it when the block turns
   * out to have no `catch`.
   */
  guarded(): boolean;
}

export interface JsRuleHandlers {
  /** A member chain that names one of the detector's chain words has ended. */
  chain?(chain: Chain): void;
  /** An object literal's key among the detector's property words, at its `:`. */
  property?(property: Property): void;
  /** A declaration whose initializer is a chain with one of the detector's chain words. */
  declarator?(declarator: Declarator): void;
}

export interface JsDetector {
  /** A chain is handed to the rule when one of its names is one of these. */
  readonly chainWords?: readonly Word[];
  /** Object keys (names or strings) whose `key: value` the rule is handed. */
  readonly propertyWords?: readonly Word[];
  /** Called once per file (a page's inline scripts share one set of handlers). */
  create(context: JsRuleContext): JsRuleHandlers;
}
