import { decodeRange } from './chars.js';
import { isGlobalObject, type ChainState } from './js-chain.js';
import { PROPERTY_INTEREST, scopeBit, type Alias, type JsFileState } from './js-file.js';
import { P_ASSIGN, P_COLON, P_COMMA, P_LBRACE, P_LBRACKET, P_LPAREN, P_MINUS, P_PLUS, P_RBRACE, P_RBRACKET, P_RPAREN, P_SEMI, P_TEMPLATE_CLOSE, P_TEMPLATE_OPEN } from './js-lexer.js';
import { END_KEY, K_END, K_NAME, K_NUMBER, K_PUNCT, K_STRING, type Declarator, type Literal } from './js-rule.js';
import type { JsWalker } from './js-walker.js';
import { W } from './words.js';

/*
 * Declarations, for scope and aliases: `var|let|const` with a name or a destructuring pattern. A
 * declared name that is one of the watched globals shadows it in the declaring frame, unless it is
 * bound to the global of the same name (`const { alert } = window`, `const pipeline =
 * window.pipeline`), which changes nothing. A name set to part of the bridge becomes an alias of it
 * in the declaring frame (`const q = window.pipeline.quotes` makes `q.addLines` a bridge call), and
 * a `const` set to a plain literal is remembered there, for shorthand properties (`{ qty }`).
 *
 * A declaration's initializer may hold functions with declarations of their own (`const f = () =>
 * { const p = window.pipeline; … }`): those are read as declarations too, each on a level of its
 * own, and the outer one resumes when they end.
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

// Reading an initializer as one plain literal: `= 20000`, `= -1`, `= 'cost'`.
const L_FIRST = 0;
const L_SIGNED = 1;
const L_VALUE = 2;
const L_NOT = 3;

/** Elements kept per pattern; a longer pattern's later elements bind names but make no aliases. */
const MAX_ELEMENTS = 16;
/** Declarations nested in initializers that are followed; deeper ones still end where they should. */
const MAX_LEVELS = 256;

/** A name a declaration binds: its bytes are decoded only when an alias or a rule needs its text. */
class Binding {
  key: string | undefined = undefined;
  keyWord = -1;
  nameWord = -1;
  line = 0;
  column = 0;
  private bytes: Buffer | undefined;
  private start = 0;
  private end = 0;
  private text: string | undefined;

  /** Takes the walker's current name token as the bound name. */
  setName(walker: JsWalker, word: number): void {
    this.bytes = walker.nameBytes;
    this.start = walker.nameStart;
    this.end = walker.nameEnd;
    this.text = undefined;
    this.nameWord = word;
  }

  name(): string {
    return (this.text ??= this.bytes ? decodeRange(this.bytes, this.start, this.end) : '');
  }

  /** The name hides an alias of the same name in the frame at `depth` (see JsFileState.hideAlias). */
  hideAlias(file: JsFileState, depth: number): void {
    file.hideAlias(this.nameWord, this.bytes, this.start, this.end, depth);
  }
}

type Init = { words: number[]; texts: string[]; condition: number };

/** One declaration being read. */
class Level {
  state = D_OFF;
  depth = 0;
  constant = false;
  /** Written right after `export` at the top level of a module. */
  exported = false;
  patternDepth = 0;
  element = E_START;
  readonly elements: Binding[] = [];
  single: Binding | undefined;
  /** The one Binding object `single` reuses, so that a plain declaration allocates nothing. */
  readonly singleBinding = new Binding();
  /** Scope bits of every name the declaration binds. */
  bits = 0;
  init: Init | undefined;
  literalStep = L_NOT;
  sign = 1;
  literal: Literal | undefined;
}

export class Declarations {
  private level = new Level();
  /** Declarations whose initializers the current one is inside, innermost last. */
  private readonly outer: Level[] = [];
  private readonly spare: Level[] = [];

  /** A declaration is being read: the walker must show it every token. */
  get busy(): boolean {
    return this.level.state !== D_OFF;
  }

  constructor(
    private readonly walker: JsWalker,
    private readonly file: JsFileState,
  ) {}

  name(word: number, afterDot: boolean): void {
    const level = this.level;
    switch (level.state) {
      case D_OFF:
        if (!afterDot && isDeclarationWord(word)) this.begin(level, word);
        return;
      case D_BINDING:
        level.single = this.binding(level.singleBinding, undefined, -1, word);
        level.bits |= scopeBit(word);
        level.state = D_AFTER;
        return;
      case D_PATTERN:
        if (this.walker.lexer.depth === level.patternDepth) this.patternName(level, word);
        return;
      case D_AFTER:
        // `for (const x of …)`, `in`.
        this.finish();
        this.name(word, afterDot);
        return;
      case D_INIT: {
        const depth = this.walker.lexer.depth;
        if (this.walker.newlineBefore && depth === level.depth) {
          // The statement ended at the line break, without a semicolon.
          this.finish();
          this.name(word, afterDot);
          return;
        }
        if (level.literalStep !== L_NOT) level.literalStep = L_NOT;
        // A declaration inside the initializer: in a function's body, or a block of one.
        if (!afterDot && depth > level.depth && isDeclarationWord(word) && this.outer.length < MAX_LEVELS) {
          this.outer.push(level);
          this.level = this.spare.pop() ?? new Level();
          this.begin(this.level, word);
        }
        return;
      }
      default:
    }
  }

  punct(kind: number, depth: number): void {
    const level = this.level;
    switch (level.state) {
      case D_BINDING:
        if (kind === P_LBRACE) {
          level.state = D_PATTERN;
          level.patternDepth = depth;
          level.element = E_START;
        } else if (kind === P_LBRACKET) {
          level.state = D_ARRAY;
          level.patternDepth = depth;
        } else this.finish(kind, depth);
        return;
      case D_PATTERN:
        this.patternPunct(level, kind, depth);
        return;
      case D_ARRAY:
        if (kind === P_RBRACKET && depth === level.patternDepth) level.state = D_AFTER;
        return;
      case D_AFTER:
        if (kind === P_ASSIGN) {
          level.state = D_INIT;
          level.init = undefined;
          // Only a const that a shorthand property may name (`const qty = 0`) keeps its literal.
          level.literalStep = level.constant && level.single !== undefined && level.single.nameWord >= 0 && PROPERTY_INTEREST[level.single.nameWord] ? L_FIRST : L_NOT;
          level.sign = 1;
          level.literal = undefined;
          return;
        }
        if (kind === P_COMMA && depth === level.depth) this.next(level);
        else this.finish(kind, depth);
        return;
      case D_INIT:
        if (depth === level.depth && (kind === P_SEMI || kind === P_COMMA || isCloser(kind))) {
          if (kind === P_COMMA) this.next(level);
          else this.finish(kind, depth);
          return;
        }
        if (depth < level.depth) {
          this.finish(kind, depth);
          return;
        }
        if (level.literalStep === L_NOT) return;
        if (level.literalStep === L_FIRST && (kind === P_MINUS || kind === P_PLUS)) {
          level.literalStep = L_SIGNED;
          if (kind === P_MINUS) level.sign = -1;
        } else level.literalStep = L_NOT;
        return;
      default:
    }
  }

  /** A string, number, template or regular expression. */
  other(): void {
    const level = this.level;
    switch (level.state) {
      case D_BINDING:
        this.finish();
        return;
      case D_PATTERN:
        if (this.walker.lexer.depth === level.patternDepth) this.skipElement(level);
        return;
      case D_AFTER:
        this.finish();
        return;
      case D_INIT: {
        if (level.literalStep === L_NOT) return;
        const walker = this.walker;
        if (level.literalStep === L_FIRST || level.literalStep === L_SIGNED) {
          if (walker.tokenKind === K_NUMBER) {
            level.literal = { kind: 'number', value: level.sign * walker.numberValue() };
            level.literalStep = L_VALUE;
            return;
          }
          if (walker.tokenKind === K_STRING && level.literalStep === L_FIRST) {
            const value = walker.stringValue();
            level.literal = value === undefined ? undefined : { kind: 'string', value };
            level.literalStep = value === undefined ? L_NOT : L_VALUE;
            return;
          }
        }
        level.literalStep = L_NOT;
        return;
      }
      default:
    }
  }

  /** A member chain ended at the walker's current token. */
  chainEnded(chain: ChainState): void {
    const level = this.level;
    if (level.state === D_PATTERN || level.state === D_ARRAY) {
      // Every plain name inside a pattern, nested ones included, is bound (keys are not).
      // A default value (`{ a = localStorage }`) is read, not bound.
      if (chain.rooted && chain.length === 1 && chain.end !== END_KEY && chain.lead !== P_ASSIGN) level.bits |= scopeBit(chain.word(0));
      return;
    }
    if (level.state !== D_INIT || chain.depth !== level.depth || chain.lead !== P_ASSIGN || !chain.rooted) return;
    // Only a chain that starts at the global object, the bridge or a name standing for it can
    // make an alias or matter to a rule; reading others would cost every declaration of a bundle.
    const first = chain.word(0);
    if (!chain.aliased && first !== W.pipeline && !isGlobalObject(first)) return;
    const walker = this.walker;
    const ends =
      walker.tokenKind === K_END ||
      (walker.tokenKind === K_NAME && walker.newlineBefore) ||
      (walker.tokenKind === K_PUNCT && walker.lexer.depth === level.depth && (walker.tokenPunct === P_SEMI || walker.tokenPunct === P_COMMA || isCloser(walker.tokenPunct)));
    if (ends) level.init = { ...chain.snapshot(), condition: chain.condition };
  }

  end(): void {
    for (;;) {
      const level = this.level;
      if (level.state === D_INIT || level.state === D_AFTER) this.commit(level);
      level.state = D_OFF;
      if (this.outer.length === 0) return;
      this.level = this.outer.pop()!;
    }
  }

  private begin(level: Level, word: number): void {
    const walker = this.walker;
    level.state = D_BINDING;
    level.depth = walker.lexer.depth;
    level.constant = word === W.const;
    level.exported = level.depth === 0 && walker.lexer.previousWord === W.export;
    if (level.elements.length > 0) level.elements.length = 0;
    level.single = undefined;
    level.bits = 0;
    level.init = undefined;
    level.literalStep = L_NOT;
    level.literal = undefined;
  }

  /** `,` after a binding: the next one of the same declaration. */
  private next(level: Level): void {
    this.commit(level);
    level.state = D_BINDING;
    level.init = undefined;
    level.literalStep = L_NOT;
  }

  /**
   * The declaration is over. A nested one returns to the declaration around it, which is then
   * shown the punctuator that ended this one (`kind` at `depth`), since it may end there too.
   */
  private finish(kind = 0, depth = 0): void {
    const level = this.level;
    this.commit(level);
    level.state = D_OFF;
    if (this.outer.length === 0) return;
    this.spare.push(level);
    this.level = this.outer.pop()!;
    if (kind !== 0) this.punct(kind, depth);
  }

  private binding(binding: Binding, key: string | undefined, keyWord: number, word: number): Binding {
    const walker = this.walker;
    binding.setName(walker, word);
    binding.key = key;
    binding.keyWord = keyWord;
    binding.line = walker.lexer.fileLine();
    binding.column = walker.column();
    return binding;
  }

  private patternName(level: Level, word: number): void {
    if (level.element === E_START) {
      level.element = E_KEY;
      if (level.elements.length < MAX_ELEMENTS) {
        const binding = this.binding(new Binding(), undefined, word, word);
        binding.key = binding.name();
        level.elements.push(binding);
      } else level.element = E_SKIP;
    } else if (level.element === E_COLON) {
      level.element = E_LOCAL;
      level.elements[level.elements.length - 1]!.setName(this.walker, word);
    } else this.skipElement(level);
  }

  private patternPunct(level: Level, kind: number, depth: number): void {
    if (depth !== level.patternDepth) {
      // An opener has pushed its frame: a nested pattern, a computed key, a default's call.
      if (depth === level.patternDepth + 1 && (kind === P_LBRACE || kind === P_LBRACKET || kind === P_LPAREN || kind === P_TEMPLATE_OPEN)) this.skipElement(level);
      return;
    }
    if (kind === P_COMMA || kind === P_RBRACE) {
      if (level.element === E_COLON) this.skipElement(level);
      level.element = E_START;
      if (kind === P_RBRACE) level.state = D_AFTER;
      return;
    }
    if (kind === P_COLON && level.element === E_KEY) level.element = E_COLON;
    else this.skipElement(level); // a default (`=`), a rest (`...`)
  }

  /** Not a plain `key` or `key: name`: its names are bound, but it makes no alias. */
  private skipElement(level: Level): void {
    if (level.element === E_KEY || level.element === E_COLON || level.element === E_LOCAL) level.elements.pop();
    level.element = E_SKIP;
  }

  private commit(level: Level): void {
    const walker = this.walker;
    const init = level.init;
    level.init = undefined;
    let bits = level.bits;
    const global = init !== undefined && init.words.every((w) => walker.isGlobalRoot(w));
    const single = level.single;
    if (single) {
      // `const alert = window.alert`, `const pipeline = window.pipeline`: still the global.
      if (init && init.words.length >= 2 && init.words[init.words.length - 1] === single.nameWord && init.words.slice(0, -1).every((w) => walker.isGlobalRoot(w))) {
        bits &= ~scopeBit(single.nameWord);
      }
      if (init) this.bind(level, single, init);
      else this.hideAlias(single, level.depth);
      if (level.constant && level.literalStep === L_VALUE && level.literal && single.nameWord >= 0) walker.setConstant(single.nameWord, level.literal, level.depth);
    }
    for (const element of level.elements) {
      if (global && element.keyWord === element.nameWord) bits &= ~scopeBit(element.nameWord);
      if (init) this.bind(level, element, { words: [...init.words, element.keyWord], texts: [...init.texts, element.key!], condition: init.condition });
      else this.hideAlias(element, level.depth);
    }
    walker.scope.declare(level.depth, bits);
    if (level.elements.length > 0) level.elements.length = 0;
    level.single = undefined;
    level.bits = 0;
    level.literalStep = L_NOT;
  }

  /** A name declared as something other than the bridge hides an alias of that name in its frame. */
  private hideAlias(binding: Binding, depth: number): void {
    binding.hideAlias(this.file, depth);
  }

  /** `name` is set to the chain `value`: an alias of the bridge, and news for the rules. */
  private bind(level: Level, binding: Binding, value: Init): void {
    const walker = this.walker;
    const own = value.words.length === 1 && value.words[0] === binding.nameWord;
    if (binding.nameWord < 0 && walker.aliasable(value.words) && !own) {
      const alias: Alias = { words: value.words, texts: value.texts, condition: value.condition };
      this.file.addAlias(binding.name(), alias, level.depth);
    } else this.hideAlias(binding, level.depth);
    if (level.exported && walker.aliasable(value.words)) this.file.exportBridge(binding.name(), value);
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
}

function isDeclarationWord(word: number): boolean {
  return word === W.var || word === W.let || word === W.const;
}

function isCloser(kind: number): boolean {
  return kind === P_RPAREN || kind === P_RBRACKET || kind === P_RBRACE || kind === P_TEMPLATE_CLOSE;
}
