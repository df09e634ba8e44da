import type { ChainState } from './js-chain.js';
import { SCOPE_BIT, type Alias, type JsFileState } from './js-file.js';
import { P_ASSIGN, P_COLON, P_COMMA, P_LBRACE, P_LBRACKET, P_LPAREN, P_DOT, P_RBRACE, P_RBRACKET, P_RPAREN, P_SEMI, P_TEMPLATE_CLOSE, P_TEMPLATE_OPEN, P_OP } from './js-lexer.js';
import { END_KEY, K_END, K_NAME, K_PUNCT, type Declarator } from './js-rule.js';
import type { JsWalker } from './js-walker.js';
import { W } from './words.js';

/*
 * Declarations, for scope and aliases: `var|let|const` with a name or a destructuring pattern, and
 * `import … from`. A declared name that is one of the watched globals shadows it in the declaring
 * frame, unless it is bound to the global of the same name (`const { alert } = window`,
 * `const pipeline = window.pipeline`), which changes nothing. A name set to part of the bridge
 * becomes an alias of it (`const q = window.pipeline.quotes` makes `q.addLines` a bridge call).
 */

const D_OFF = 0;
const D_BINDING = 1; // after `const` or `,`: a name or a pattern comes
const D_PATTERN = 2; // inside `{ … }`
const D_ARRAY = 3; // inside `[ … ]`
const D_AFTER = 4; // after the binding: `=`, `,` or the end
const D_INIT = 5; // in the initializer

// An element of an object pattern, at the pattern's own depth.
const E_START = 0;
const E_KEY = 1;
const E_COLON = 2;
const E_LOCAL = 3;
const E_SKIP = 4;

const I_OFF = 0;
const I_START = 1; // right after `import`
const I_CLAUSE = 2; // the names before `from`

/** Elements kept per pattern; a longer pattern's later elements bind names but make no aliases. */
const MAX_ELEMENTS = 16;

interface Binding {
  key: string | undefined;
  keyWord: number;
  /** The name's text, decoded only when an alias or a rule needs it. */
  name: () => string;
  nameWord: number;
  line: number;
  column: number;
}

type Init = { words: number[]; texts: string[] };

export class Declarations {
  private state = D_OFF;
  private depth = 0;
  private patternDepth = 0;
  private element = E_START;
  private readonly elements: Binding[] = [];
  private single: Binding | undefined;
  /** Scope bits of every name the declaration binds. */
  private bits = 0;
  private initFirst = false;
  private init: Init | undefined;

  private importState = I_OFF;
  private importBits = 0;
  private lastImportBit = 0;

  /** A declaration or an import is being read: the walker must show it every token. */
  get busy(): boolean {
    return this.state !== D_OFF || this.importState !== I_OFF;
  }

  constructor(
    private readonly walker: JsWalker,
    private readonly file: JsFileState,
  ) {}

  name(word: number, afterDot: boolean): void {
    if (this.importState !== I_OFF) this.importName(word);
    switch (this.state) {
      case D_OFF:
        if (afterDot) return;
        if (word === W.var || word === W.let || word === W.const) this.begin();
        else if (word === W.import && this.walker.lexer.depth === 0) {
          this.importState = I_START;
          this.importBits = 0;
          this.lastImportBit = 0;
        }
        return;
      case D_BINDING:
        this.single = this.binding(undefined, -1, word);
        this.bits |= SCOPE_BIT[word] ?? 0;
        this.state = D_AFTER;
        return;
      case D_PATTERN:
        if (this.walker.lexer.depth === this.patternDepth) this.patternName(word);
        return;
      case D_AFTER:
        // `for (const x of …)`, `in`.
        this.commit();
        this.state = D_OFF;
        return;
      case D_INIT:
        if (this.walker.newlineBefore && this.walker.lexer.depth === this.depth) {
          // The statement ended at the line break, without a semicolon.
          this.commit();
          this.state = D_OFF;
          if (!afterDot && (word === W.var || word === W.let || word === W.const)) this.begin();
        }
        return;
      default:
    }
  }

  punct(kind: number, depth: number): void {
    if (this.importState !== I_OFF) this.importPunct(kind);
    switch (this.state) {
      case D_OFF:
        return;
      case D_BINDING:
        if (kind === P_LBRACE) {
          this.state = D_PATTERN;
          this.patternDepth = depth;
          this.element = E_START;
        } else if (kind === P_LBRACKET) {
          this.state = D_ARRAY;
          this.patternDepth = depth;
        } else this.state = D_OFF;
        return;
      case D_PATTERN:
        this.patternPunct(kind, depth);
        return;
      case D_ARRAY:
        if (kind === P_RBRACKET && depth === this.patternDepth) this.state = D_AFTER;
        return;
      case D_AFTER:
        if (kind === P_ASSIGN) {
          this.state = D_INIT;
          this.initFirst = true;
          this.init = undefined;
          return;
        }
        this.commit();
        this.state = kind === P_COMMA && depth === this.depth ? D_BINDING : D_OFF;
        return;
      case D_INIT:
        if (depth === this.depth && (kind === P_SEMI || kind === P_COMMA || isCloser(kind))) {
          this.commit();
          this.state = kind === P_COMMA ? D_BINDING : D_OFF;
        } else if (depth < this.depth) {
          this.commit();
          this.state = D_OFF;
        }
        return;
      default:
    }
  }

  /** A string, number, template or regular expression. */
  other(): void {
    if (this.importState !== I_OFF) {
      // `import './x.js'`, or the module name after `from`.
      if (this.importState === I_CLAUSE) this.walker.scope.declare(0, this.importBits);
      this.importState = I_OFF;
    }
    switch (this.state) {
      case D_BINDING:
        this.state = D_OFF;
        return;
      case D_PATTERN:
        if (this.walker.lexer.depth === this.patternDepth) this.skipElement();
        return;
      case D_AFTER:
        this.commit();
        this.state = D_OFF;
        return;
      default:
    }
  }

  /** A member chain ended at the walker's current token. */
  chainEnded(chain: ChainState): void {
    if (this.state === D_PATTERN || this.state === D_ARRAY) {
      // Every plain name inside a pattern, nested ones included, is bound (keys are not).
      // A default value (`{ a = localStorage }`) is read, not bound.
      if (chain.rooted && chain.length === 1 && chain.end !== END_KEY && chain.lead !== P_ASSIGN) this.bits |= SCOPE_BIT[chain.word(0)] ?? 0;
      return;
    }
    if (this.state !== D_INIT || !this.initFirst) return;
    this.initFirst = false;
    if (!chain.rooted || chain.lead !== P_ASSIGN || chain.depth !== this.depth) return;
    const walker = this.walker;
    const ends =
      walker.tokenKind === K_END ||
      (walker.tokenKind === K_NAME && walker.newlineBefore) ||
      (walker.tokenKind === K_PUNCT && walker.lexer.depth === this.depth && (walker.tokenPunct === P_SEMI || walker.tokenPunct === P_COMMA || isCloser(walker.tokenPunct)));
    if (ends) this.init = chain.snapshot();
  }

  end(): void {
    if (this.state === D_INIT || this.state === D_AFTER) this.commit();
    this.state = D_OFF;
    if (this.importState === I_CLAUSE) this.walker.scope.declare(0, this.importBits);
    this.importState = I_OFF;
  }

  private begin(): void {
    this.state = D_BINDING;
    this.depth = this.walker.lexer.depth;
    this.elements.length = 0;
    this.single = undefined;
    this.bits = 0;
    this.init = undefined;
  }

  private binding(key: string | undefined, keyWord: number, word: number): Binding {
    const walker = this.walker;
    return { key, keyWord, name: walker.nameGetter(), nameWord: word, line: walker.lexer.fileLine(), column: walker.column() };
  }

  private patternName(word: number): void {
    if (this.element === E_START) {
      this.element = E_KEY;
      if (this.elements.length < MAX_ELEMENTS) {
        const binding = this.binding(undefined, word, word);
        binding.key = binding.name();
        this.elements.push(binding);
      } else this.element = E_SKIP;
    } else if (this.element === E_COLON) {
      this.element = E_LOCAL;
      const last = this.elements[this.elements.length - 1]!;
      last.name = this.walker.nameGetter();
      last.nameWord = word;
    } else this.skipElement();
  }

  private patternPunct(kind: number, depth: number): void {
    if (depth !== this.patternDepth) {
      // An opener has pushed its frame: a nested pattern, a computed key, a default's call.
      if (depth === this.patternDepth + 1 && (kind === P_LBRACE || kind === P_LBRACKET || kind === P_LPAREN || kind === P_TEMPLATE_OPEN)) this.skipElement();
      return;
    }
    if (kind === P_COMMA || kind === P_RBRACE) {
      if (this.element === E_COLON) this.skipElement();
      this.element = E_START;
      if (kind === P_RBRACE) this.state = D_AFTER;
      return;
    }
    if (kind === P_COLON && this.element === E_KEY) this.element = E_COLON;
    else this.skipElement(); // a default (`=`), a rest (`...`)
  }

  /** Not a plain `key` or `key: name`: its names are bound, but it makes no alias. */
  private skipElement(): void {
    if (this.element === E_KEY || this.element === E_COLON || this.element === E_LOCAL) this.elements.pop();
    this.element = E_SKIP;
  }

  private commit(): void {
    const walker = this.walker;
    const init = this.init;
    this.init = undefined;
    let bits = this.bits;
    const global = init !== undefined && init.words.every((w) => walker.isGlobalRoot(w));
    const single = this.single;
    if (single) {
      // `const alert = window.alert`, `const pipeline = window.pipeline`: still the global.
      if (init && init.words.length >= 2 && init.words[init.words.length - 1] === single.nameWord && init.words.slice(0, -1).every((w) => walker.isGlobalRoot(w))) {
        bits &= ~(SCOPE_BIT[single.nameWord] ?? 0);
      }
      if (init) this.bind(single, init);
    }
    for (const element of this.elements) {
      if (global && element.keyWord === element.nameWord) bits &= ~(SCOPE_BIT[element.nameWord] ?? 0);
      if (init) this.bind(element, { words: [...init.words, element.keyWord], texts: [...init.texts, element.key!] });
    }
    walker.scope.declare(this.depth, bits);
    this.elements.length = 0;
    this.single = undefined;
    this.bits = 0;
  }

  /** `name` is set to the chain `value`: an alias of the bridge, and news for the rules. */
  private bind(binding: Binding, value: Init): void {
    if (binding.nameWord < 0 && this.walker.aliasable(value.words) && !(value.words.length === 1 && value.words[0] === binding.nameWord)) {
      const alias: Alias = { words: value.words, texts: value.texts };
      this.file.addAlias(binding.name(), alias);
    }
    const declarator: Declarator = {
      key: binding.key,
      keyWord: binding.key === undefined ? -1 : binding.keyWord,
      name: binding.name(),
      line: binding.line,
      column: binding.column,
      init: { words: binding.key === undefined ? value.words : value.words.slice(0, -1), texts: binding.key === undefined ? value.texts : value.texts.slice(0, -1) },
    };
    for (const handlers of this.file.handlers) handlers.declarator?.(declarator);
  }

  // --- import ---------------------------------------------------------------------------------------

  private importName(word: number): void {
    if (this.importState === I_START) this.importState = I_CLAUSE;
    if (word === W.from) {
      this.walker.scope.declare(0, this.importBits);
      this.importState = I_OFF;
      return;
    }
    if (word === W.as) {
      // `a as b`: only b is bound.
      this.importBits &= ~this.lastImportBit;
      this.lastImportBit = 0;
      return;
    }
    this.lastImportBit = SCOPE_BIT[word] ?? 0;
    this.importBits |= this.lastImportBit;
  }

  private importPunct(kind: number): void {
    if (this.importState === I_START && (kind === P_LPAREN || kind === P_DOT)) this.importState = I_OFF; // import(…), import.meta
    else if (this.importState === I_START) this.importState = I_CLAUSE;
    else if (kind === P_SEMI) this.importState = I_OFF;
    else if (kind === P_OP) this.lastImportBit = 0; // `*`
  }
}

function isCloser(kind: number): boolean {
  return kind === P_RPAREN || kind === P_RBRACKET || kind === P_RBRACE || kind === P_TEMPLATE_CLOSE;
}
