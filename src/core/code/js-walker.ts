import { isBridgeAliasTarget } from './bridge-calls.js';
import { decodeRange } from './chars.js';
import { ChainState, isGlobalObject } from './js-chain.js';
import { CHAIN_INTEREST, PROPERTY_BIT, PROPERTY_INTEREST, SCOPE_BIT, type JsFileState } from './js-file.js';
import {
  F_OBJECT,
  F_PAREN,
  JsLexer,
  P_ARROW,
  P_ASSIGN,
  P_COLON,
  P_COMMA,
  P_DOT,
  P_LBRACE,
  P_LBRACKET,
  P_LPAREN,
  P_OPT_DOT,
  P_PLUS,
  P_PLUS_ASSIGN,
  P_RBRACE,
  P_RBRACKET,
  P_RPAREN,
  P_TEMPLATE_CLOSE,
  P_TEMPLATE_OPEN,
  type JsTokenHandler,
  type LexerOrigin,
} from './js-lexer.js';
import { Declarations } from './js-declarations.js';
import type { Alias, Constant } from './js-file.js';
import { FR_ARGS, FR_CALL, FR_CONTROL, FR_PAREN, FR_TRY, Frames, MAX_FRAMES } from './js-frames.js';
import { ModuleStatements } from './js-modules.js';
import { Scope } from './js-scope.js';
import { TokenView } from './js-token.js';
import {
  END_ARROW,
  END_ASSIGN,
  END_CALL,
  END_KEY,
  END_OTHER,
  END_PLUS_ASSIGN,
  K_END,
  K_NAME,
  K_NUMBER,
  K_PUNCT,
  K_REGEX,
  K_STRING,
  K_TEMPLATE_END,
  K_TEMPLATE_START,
  type Literal,
  type Token,
} from './js-rule.js';
import { lookupWord, W } from './words.js';

/*
 * Turns the tokenizer's tokens into what rules read: member chains (ended by the token after them),
 * object-literal properties, and scopes. It does the shared work once per token and calls a rule
 * only for the chains and keys it named, so an ordinary token costs a few comparisons whatever the
 * number of rules.
 *
 * Scope (js-scope.ts) is kept per bracket frame (js-frames.ts); declarations are read by
 * js-declarations.ts, imports and exports by js-modules.ts.
 */

// A member written in brackets: `[` + one literal + `]` after a value.
const BR_OFF = 0;
const BR_OPEN = 1;
const BR_TEMPLATE = 2;
const BR_LITERAL = 3;
const BR_PLUS = 4; // `[ 'a' +`: another literal is added


export class JsWalker implements JsTokenHandler {
  readonly lexer: JsLexer;
  readonly chain = new ChainState();
  private readonly declarations: Declarations;
  private readonly modules: ModuleStatements;

  // The token being handled, for watchers.
  tokenKind = 0;
  tokenPunct = 0;
  tokenWord = -1;
  private readonly token: Token;
  private tokenBytes: Buffer | undefined;
  private tokenStart = 0;
  private tokenEnd = 0;

  /** Per-frame facts, indexed by bracket depth. */
  private readonly frames = new Frames();
  /** Declarations, parameters and the uses of globals they may cancel. */
  readonly scope: Scope;

  private watchers: Array<(token: Token) => boolean> = [];
  /** Per watcher, the token it was added at (it has seen that one already). */
  private watcherSince: number[] = [];
  /** Counts tokens. */
  private serial = 0;
  private bracket = BR_OFF;
  private bracketDepth = 0;
  private bracketWord = -1;
  private bracketText: string | undefined;
  private bracketLine = 0;
  private bracketColumn = 0;
  /** The chain ended at the `)` of a parenthesised expression; a `(` next makes it a call. */
  private held = false;
  /** First word of the chain whose call just closed, for `$(x).html`. */
  private calledRoot = -1;
  private receiver = -1;
  /** A `function` or `class` keyword was read: the next name is declared. */
  private declaring = false;
  // A key of an object literal that a rule asked for: its `:` makes it a property, a `,` or `}`
  // right after it a shorthand one (`{ qty }`).
  private keyWord = -1;
  private keyLine = 0;
  private keyColumn = 0;
  private keyDepth = 0;
  /** The word of the shorthand property being handed to the rules, else -1. */
  shorthand = -1;
  /** The chain being handed to the rules, while it is. */
  private handling: ChainState | undefined;
  // The last name token read, and the plain name an `=` right after it assigns to, for Chain.assigned.
  private lastNameSerial = -1;
  private lastNameAfterDot = false;
  private lastNameBytes: Buffer | undefined;
  private lastNameStart = 0;
  private lastNameEnd = 0;
  private assignSerial = -1;
  /** When the last `)` of a call's arguments or a parameter list closed. */
  private argsClosedSerial = -1;
  private assignBytes: Buffer | undefined;
  private assignStart = 0;
  private assignEnd = 0;

  /** For an inline module: where its top-level aliases and constants start, to be given up at its end. */
  private readonly moduleMarks: { aliases: number; constants: number } | undefined;

  constructor(
    private readonly state: JsFileState,
    origin?: LexerOrigin,
    /**
     * An inline `<script type="module">`: what it declares at its top level is its own, and does
     * not hide the globals that the page's other scripts and handlers use.
     */
    module = false,
  ) {
    this.lexer = new JsLexer(this, origin);
    this.scope = new Scope(this.frames, state, this.lexer, module ? [] : state.rootUses);
    this.declarations = new Declarations(this, state);
    this.modules = new ModuleStatements(this, state);
    this.frames.declared[0] = module ? 0 : state.rootDeclared;
    this.moduleMarks = module ? { aliases: state.aliases.mark(), constants: state.constants.mark() } : undefined;
    this.token = new TokenView(this);
  }

  // --- the current token, for watchers and declarations --------------------------------------------

  get newlineBefore(): boolean {
    return this.lexer.newlineBefore;
  }

  depth(): number {
    return this.lexer.depth;
  }

  stringValue(): string | undefined {
    return this.lexer.stringValue();
  }

  plainTemplate(): boolean {
    return this.lexer.plainTemplate();
  }

  numberValue(): number {
    if (this.tokenKind !== K_NUMBER || !this.tokenBytes) return NaN;
    const text = this.tokenBytes.toString('latin1', this.tokenStart, this.tokenEnd).replace(/_/g, '');
    if (/^0[0-7]+$/.test(text)) return parseInt(text, 8); // legacy octal
    return Number(text);
  }

  line(): number {
    return this.tokenKind === K_STRING || this.tokenKind === K_TEMPLATE_START ? this.lexer.stringLine() : this.lexer.fileLine();
  }

  column(): number {
    return this.tokenKind === K_STRING || this.tokenKind === K_TEMPLATE_START ? this.lexer.stringColumn() : this.lexer.fileColumn(this.tokenStart);
  }

  /** Where the current token's bytes are, to decode its name later if need be (a chunk is never reused, so they may be kept). */
  get nameBytes(): Buffer | undefined {
    return this.tokenBytes;
  }

  get nameStart(): number {
    return this.tokenStart;
  }

  get nameEnd(): number {
    return this.tokenEnd;
  }

  /** The text of the current name token, decoded when called (later, if need be). */
  nameGetter(): () => string {
    const bytes = this.tokenBytes;
    const start = this.tokenStart;
    const end = this.tokenEnd;
    let text: string | undefined;
    return () => (text ??= bytes ? decodeRange(bytes, start, end) : '');
  }

  // --- for rules (through the file's context) ------------------------------------------------------

  tagCall(tag: number): void {
    const depth = this.lexer.depth;
    if (depth < this.frames.ownTags.length) {
      this.frames.ownTags[depth] = tag;
      this.frames.contextTags[depth] = tag;
      this.frames.contextConditions[depth] = this.handling?.condition ?? 0;
    }
  }

  /**
   * The condition a finding about the bridge made now waits on: that of the chain being handled,
   * or of the call whose arguments are being read, when it was reached through an imported name.
   */
  reportCondition(): number {
    if (this.handling) return this.handling.condition;
    const depth = this.lexer.depth;
    return depth < this.frames.contextConditions.length ? this.frames.contextConditions[depth]! : 0;
  }

  /** The value of a `const` of this word in scope, when it is a plain literal and no inner declaration hides it. */
  constantValue(word: number): Literal | undefined {
    const constant = this.state.constants.get(word);
    if (!constant) return undefined;
    const bit = SCOPE_BIT[word]!;
    const declared = this.frames.declared;
    for (let d = Math.min(this.lexer.depth, declared.length - 1); d > constant.depth; d--) if (declared[d]! & bit) return undefined;
    // An arrow function without braces around this point, whose parameter has the name.
    for (const arrow of this.scope.arrowScopes) if (arrow.bindings & bit && arrow.depth >= constant.depth) return undefined;
    return constant.value;
  }

  setConstant(word: number, value: Literal, depth: number): void {
    this.state.constants.set(word, { value, depth } satisfies Constant, depth);
  }

  scopeMark(outer = 0): number {
    const depth = Math.min(Math.max(0, this.lexer.depth - outer), MAX_FRAMES - 1);
    return depth === 0 ? 0 : this.frames.serials[depth]!;
  }

  inScope(mark: number): boolean {
    if (mark === 0) return true;
    for (let depth = Math.min(this.lexer.depth, MAX_FRAMES - 1); depth > 0; depth--) if (this.frames.serials[depth] === mark) return true;
    return false;
  }

  /** Inside a `try` block (outside any function written there) at the current point. */
  get guarded(): boolean {
    const depth = this.lexer.depth;
    return depth > 0 && depth < MAX_FRAMES && this.frames.guards[depth]! > 0;
  }

  /** Keeps a guarded finding's data, to unmark it if its `try` turns out to have no `catch`. */
  noteGuarded(data: Record<string, unknown>): void {
    const depth = this.lexer.depth;
    if (depth <= 0 || depth >= MAX_FRAMES) return;
    const at = this.frames.guards[depth]!;
    if (at > 0) (this.frames.guarded[at] ??= []).push(data);
  }

  /** A `try` block ends: what was found in it is guarded only if a `catch` comes next (`finally` alone rethrows). */
  private endTry(depth: number): void {
    const found = this.frames.guarded[depth];
    this.frames.guarded[depth] = undefined;
    if (!found) return;
    let first = true;
    this.watch((token) => {
      if (first) {
        first = false;
        return true;
      }
      if (!(token.kind === K_NAME && token.word === W.catch)) for (const data of found) delete data.guarded;
      return false;
    });
  }

  /** The last name token read (before the current one), decoded when asked. */
  private nameBefore(): () => string {
    const bytes = this.lastNameBytes;
    const start = this.lastNameStart;
    const end = this.lastNameEnd;
    let text: string | undefined;
    return () => (text ??= bytes ? decodeRange(bytes, start, end) : '');
  }

  /** The name the `=` just read assigns to, decoded when asked. */
  private assignTarget(): () => string {
    const bytes = this.assignBytes;
    const start = this.assignStart;
    const end = this.assignEnd;
    let text: string | undefined;
    return () => (text ??= bytes ? decodeRange(bytes, start, end) : '');
  }

  watch(watcher: (token: Token) => boolean): void {
    // A watcher sees the token being handled first.
    if (watcher(this.token)) {
      this.watchers.push(watcher);
      this.watcherSince.push(this.serial);
    }
  }

  onObjectEnd(done: (keys: number) => void): void {
    const depth = this.lexer.depth;
    if (depth < MAX_FRAMES) (this.frames.objectEnds[depth] ??= []).push(done);
  }

  // --- tokens --------------------------------------------------------------------------------------

  name(bytes: Buffer, start: number, end: number, word: number, afterDot: boolean): void {
    this.setToken(K_NAME, 0, word, bytes, start, end);
    // `t.innerHTML`: the name before the `.`, when it starts no chain of its own.
    const owner = afterDot && this.lastNameSerial === this.serial - 2 && !this.lastNameAfterDot ? this.nameBefore() : undefined;
    this.lastNameSerial = this.serial;
    this.lastNameAfterDot = afterDot;
    this.lastNameBytes = bytes;
    this.lastNameStart = start;
    this.lastNameEnd = end;
    const chain = this.chain;
    if (this.bracket !== BR_OFF) this.bracketOff();
    const continues = afterDot && chain.length > 0 && chain.dot && !this.held;
    if (!continues && chain.length > 0) this.endChain();
    if (this.scope.pending) this.scope.settle(this.tokenKind, this.tokenPunct);
    if (this.watchers.length > 0) this.runWatchers();
    if (this.keyWord >= 0) this.keyWord = -1;
    if (word >= 0 || this.declarations.busy) this.declarations.name(word, afterDot);
    if (word === W.import || word === W.export || this.modules.busy) this.modules.name(word, afterDot);

    const lexer = this.lexer;
    if (continues) {
      chain.dot = false;
      chain.push(word, bytes, start, end, undefined, lexer.fileLine(), lexer.fileColumn(start));
      if (word >= 0) chain.interest |= CHAIN_INTEREST[word]!;
      return;
    }
    if (afterDot) {
      // A member of something unnamed: `f().html`, `this.innerHTML`, `#alert`.
      const receiver = this.receiver;
      this.receiver = -1;
      if ((word >= 0 && CHAIN_INTEREST[word] !== 0) || receiver >= 0) {
        chain.start(false, receiver, lexer.depth, lexer.previousPunct);
        chain.ownerName = owner;
        chain.push(word, bytes, start, end, undefined, lexer.fileLine(), lexer.fileColumn(start));
        if (word >= 0) chain.interest |= CHAIN_INTEREST[word]!;
      }
      return;
    }
    const previousPunct = lexer.previousPunct;
    if (this.declaring) {
      // `function alert(…)`, `class Storage`: the name is declared, not used.
      this.declaring = false;
      if (word >= 0) this.scope.declare(lexer.depth, SCOPE_BIT[word]!);
      this.state.hideAlias(word, bytes, start, end, lexer.depth);
      return;
    }
    if (word >= 0) {
      if (word === W.function || word === W.class) {
        this.declaring = true;
        return;
      }
      if (PROPERTY_INTEREST[word] && (previousPunct === P_LBRACE || previousPunct === P_COMMA)) this.keyCandidate(word, lexer.fileLine(), lexer.fileColumn(start), lexer.depth);
      // Keywords and other words no rule and no scope cares about start no chain.
      if (CHAIN_INTEREST[word] === 0 && SCOPE_BIT[word] === 0) return;
      // `import { pipeline } from './bridge.js'`: the name may stand for what that module exports.
      const imported = word === W.pipeline && this.state.aliases.size > 0 ? this.state.aliases.get('pipeline') : undefined;
      if (imported) {
        this.startAlias(imported, 'pipeline', start, previousPunct);
        return;
      }
      chain.start(true, -1, lexer.depth, previousPunct);
      chain.push(word, bytes, start, end, undefined, lexer.fileLine(), lexer.fileColumn(start));
      chain.interest = CHAIN_INTEREST[word]!;
      if (this.assignSerial === this.serial - 1) chain.target = this.assignTarget();
      return;
    }
    const state = this.state;
    if (state.aliases.size > 0 && state.aliasFirstBytes[bytes[start]!] === 1) {
      const name = decodeRange(bytes, start, end);
      const alias = state.aliases.get(name);
      if (alias) this.startAlias(alias, name, start, previousPunct);
    }
  }

  /** A chain read through a variable that stands for part of the bridge: it starts with what the variable stands for. */
  private startAlias(alias: Alias, name: string, start: number, previousPunct: number): void {
    const chain = this.chain;
    const lexer = this.lexer;
    chain.start(true, -1, lexer.depth, previousPunct);
    chain.aliased = true;
    chain.aliasName = name;
    chain.aliasLength = alias.words.length;
    chain.condition = alias.condition;
    const line = lexer.fileLine();
    const column = lexer.fileColumn(start);
    for (let i = 0; i < alias.words.length; i++) {
      const w = alias.words[i]!;
      chain.push(w, undefined, 0, 0, alias.texts[i], line, column);
      if (w >= 0) chain.interest |= CHAIN_INTEREST[w]!;
    }
  }

  punct(kind: number, at: number): void {
    this.setToken(K_PUNCT, kind, -1, undefined, at, at);
    if (kind === P_ASSIGN && this.lastNameSerial === this.serial - 1 && !this.lastNameAfterDot) {
      this.assignSerial = this.serial;
      this.assignBytes = this.lastNameBytes;
      this.assignStart = this.lastNameStart;
      this.assignEnd = this.lastNameEnd;
    }
    const lexer = this.lexer;
    const depth = lexer.depth;
    const chain = this.chain;
    const opens = kind === P_LPAREN || kind === P_LBRACKET || kind === P_LBRACE || kind === P_TEMPLATE_OPEN;
    if (opens) this.openFrame(depth, kind);

    if (this.bracket !== BR_OFF) this.bracketPunct(kind, depth);
    else if (chain.length > 0) {
      if ((kind === P_DOT || kind === P_OPT_DOT) && !this.held) {
        if (!(chain.dot && kind === P_OPT_DOT)) chain.dot = true;
      } else if (kind === P_LBRACKET && !this.held && (!chain.dot || lexer.previousPunct === P_OPT_DOT)) {
        this.openBracket(depth);
      } else if (kind === P_RPAREN && this.groupEnds(depth)) {
        this.held = true;
        this.scope.noteBinding(this.chain, END_OTHER);
      } else this.endChain();
    } else if (kind === P_LBRACKET && lexer.afterValue()) this.openBracket(depth);

    // `class: 'x'` is an object key, not a declaration.
    if (this.declaring && (kind === P_LPAREN || kind === P_LBRACE || kind === P_COLON)) this.declaring = false;
    if (this.scope.pending) this.scope.settle(this.tokenKind, this.tokenPunct);
    if (this.watchers.length > 0) this.runWatchers();
    if (this.keyWord >= 0) {
      if (kind === P_COLON) this.property(false);
      else if (this.keyDepth === depth && (kind === P_COMMA || kind === P_RBRACE)) this.property(true);
      this.keyWord = -1;
    }
    if (this.declarations.busy) this.declarations.punct(kind, depth);
    if (this.modules.busy) this.modules.punct(kind, depth);
    if (this.scope.arrowScopes.length > 0) this.scope.endArrowScopes(kind, depth);

    if (kind === P_DOT || kind === P_OPT_DOT) {
      this.receiver = lexer.previousPunct === P_RPAREN ? this.calledRoot : -1;
    }
    if (kind === P_RPAREN || kind === P_RBRACKET || kind === P_RBRACE || kind === P_TEMPLATE_CLOSE) this.closeFrame(kind, depth);
  }

  string(): void {
    this.setToken(K_STRING, 0, -1, undefined, 0, 0);
    if (this.bracket === BR_OPEN) this.bracketLiteral();
    else if (this.bracket === BR_PLUS) this.bracketConcat();
    else {
      if (this.bracket !== BR_OFF) this.bracketOff();
      this.endChain();
    }
    if (this.scope.pending) this.scope.settle(this.tokenKind, this.tokenPunct);
    if (this.watchers.length > 0) this.runWatchers();
    const lexer = this.lexer;
    if (this.keyWord >= 0) this.keyWord = -1;
    else if ((lexer.previousPunct === P_LBRACE || lexer.previousPunct === P_COMMA) && lexer.stringSize() <= 32) {
      const word = lexer.stringWord();
      if (word >= 0 && PROPERTY_INTEREST[word]) this.keyCandidate(word, lexer.stringLine(), lexer.stringColumn(), -1);
    }
    if (this.declarations.busy) this.declarations.other();
    if (this.modules.busy) this.modules.other();
  }

  number(bytes: Buffer, start: number, end: number): void {
    this.setToken(K_NUMBER, 0, -1, bytes, start, end);
    this.simpleToken();
  }

  templateStart(): void {
    this.setToken(K_TEMPLATE_START, 0, -1, undefined, 0, 0);
    if (this.bracket === BR_OPEN) {
      this.bracket = BR_TEMPLATE;
      if (this.scope.pending) this.scope.settle(this.tokenKind, this.tokenPunct);
      if (this.watchers.length > 0) this.runWatchers();
      return;
    }
    this.simpleToken();
  }

  templateEnd(): void {
    this.setToken(K_TEMPLATE_END, 0, -1, undefined, 0, 0);
    if (this.bracket === BR_TEMPLATE && this.lexer.plainTemplate()) {
      this.bracketLiteral();
      if (this.watchers.length > 0) this.runWatchers();
      return;
    }
    this.simpleToken();
  }

  regex(): void {
    this.setToken(K_REGEX, 0, -1, undefined, 0, 0);
    this.simpleToken();
  }

  comment(text: string, line: number, column: number, endLine: number): void {
    this.state.report.comment(text, line, column, endLine);
  }

  finish(): void {
    this.setToken(K_END, 0, -1, undefined, 0, 0);
    if (this.bracket !== BR_OFF) this.bracketOff();
    this.endChain();
    if (this.scope.pending) this.scope.settle(this.tokenKind, this.tokenPunct);
    if (this.watchers.length > 0) this.runWatchers();
    this.watchers = [];
    this.watcherSince = [];
    this.declarations.end();
    this.modules.end();
    // Frames left open (a truncated script) hand their uses to the top level.
    const rootUses = this.scope.rootUses;
    for (let depth = Math.min(this.lexer.depth, MAX_FRAMES - 1); depth > 0; depth--) {
      const uses = this.frames.uses[depth];
      if (uses) for (const use of uses) if ((this.frames.declared[depth]! & use.bit) === 0) rootUses.push(use);
    }
    const state = this.state;
    const marks = this.moduleMarks;
    if (marks) {
      // The module's own top level has been seen whole: what it does not declare, the page's globals may.
      const declared = this.frames.declared[0]!;
      for (const use of rootUses) if ((declared & use.bit) === 0) state.rootUses.push(use);
      state.aliases.rewind(marks.aliases);
      state.constants.rewind(marks.constants);
      return;
    }
    state.aliases.close(1);
    state.constants.close(1);
    state.rootDeclared |= this.frames.declared[0]!;
  }

  // --- helpers -------------------------------------------------------------------------------------

  private setToken(kind: number, punct: number, word: number, bytes: Buffer | undefined, start: number, end: number): void {
    this.serial++;
    this.tokenKind = kind;
    this.tokenPunct = punct;
    this.tokenWord = word;
    this.tokenBytes = bytes;
    this.tokenStart = start;
    this.tokenEnd = end;
  }

  private simpleToken(): void {
    if (this.bracket !== BR_OFF) this.bracketOff();
    if (this.chain.length > 0) this.endChain();
    if (this.scope.pending) this.scope.settle(this.tokenKind, this.tokenPunct);
    if (this.watchers.length > 0) this.runWatchers();
    if (this.keyWord >= 0) this.keyWord = -1;
    if (this.declarations.busy) this.declarations.other();
    if (this.modules.busy) this.modules.other();
  }

  private runWatchers(): void {
    const watchers = this.watchers;
    const since = this.watcherSince;
    let kept = 0;
    for (let i = 0; i < watchers.length; i++) {
      const watcher = watchers[i]!;
      const added = since[i]!;
      if (added === this.serial || watcher(this.token)) {
        watchers[kept] = watcher;
        since[kept++] = added;
      }
    }
    watchers.length = kept;
    since.length = kept;
  }

  /** The chain being read ends at the current token: hand it to the rules that want it. */
  private endChain(): void {
    const chain = this.chain;
    if (chain.length === 0) return;
    let end: number;
    if (this.held) {
      this.held = false;
      end = this.tokenKind === K_PUNCT && this.tokenPunct === P_LPAREN ? END_CALL : this.tokenKind === K_PUNCT && this.tokenPunct === P_ARROW ? END_ARROW : END_OTHER;
      chain.indirect = end === END_CALL;
    } else {
      end = this.tokenKind !== K_PUNCT ? END_OTHER : endOf(this.tokenPunct, chain);
      this.scope.noteBinding(this.chain, end);
    }
    chain.end = end;
    const depth = this.lexer.depth;
    if (end === END_CALL && depth < this.frames.flags.length) {
      this.frames.flags[depth] = this.frames.flags[depth]! | FR_CALL;
      this.frames.callRoots[depth] = chain.rooted ? chain.word(0) : chain.receiver;
    }
    if (chain.interest !== 0) {
      chain.argument = this.isArgument(chain, depth);
      this.handling = chain;
      const handlers = this.state.handlers;
      for (let bits = chain.interest, i = 0; bits !== 0; bits >>>= 1, i++) {
        if (bits & 1) handlers[i]!.chain?.(chain);
      }
      this.handling = undefined;
    }
    if (this.declarations.busy) this.declarations.chainEnded(chain);
    if (this.modules.busy) this.modules.chainEnded(chain);
    chain.length = 0;
  }

  /** A whole argument of a call: `f(alert)`, `p.then(x, confirm)` (a parameter list is told apart by scope later). */
  private isArgument(chain: ChainState, depth: number): boolean {
    if (!chain.rooted || chain.depth !== depth || depth === 0 || depth >= MAX_FRAMES || (this.frames.flags[depth]! & FR_ARGS) === 0) return false;
    if (chain.lead !== P_LPAREN && chain.lead !== P_COMMA) return false;
    return this.tokenKind === K_PUNCT && (this.tokenPunct === P_RPAREN || this.tokenPunct === P_COMMA);
  }

  /** `)` ends a parenthesised expression whose last element is the chain: `(0, alert)`. */
  private groupEnds(depth: number): boolean {
    const chain = this.chain;
    if (depth >= MAX_FRAMES || (this.frames.flags[depth]! & (FR_PAREN | FR_CALL | FR_CONTROL | FR_ARGS)) !== FR_PAREN) return false;
    return chain.rooted && chain.depth === depth && (chain.lead === P_LPAREN || chain.lead === P_COMMA);
  }

  private openFrame(depth: number, kind: number): void {
    if (depth >= MAX_FRAMES) return;
    let flags = 0;
    if (kind === P_LBRACE) {
      const lexer = this.lexer;
      if (lexer.previousPunct === 0 && lexer.previousWord === W.try) flags = FR_TRY;
      // `=> {`, and `) {` after a parameter list: a function's body.
      const body = lexer.previousPunct === P_ARROW || (lexer.previousPunct === P_RPAREN && this.argsClosedSerial === this.serial - 1);
      this.frames.open(depth, flags, body);
      return;
    }
    if (kind === P_LPAREN) {
      flags = FR_PAREN;
      const previousWord = this.lexer.previousWord;
      if (this.lexer.previousPunct === 0 && (previousWord === W.if || previousWord === W.while || previousWord === W.for || previousWord === W.with || previousWord === W.switch)) {
        flags |= FR_CONTROL;
      } else if (this.lexer.afterValue()) flags |= FR_ARGS;
    }
    this.frames.open(depth, flags);
  }

  private closeFrame(kind: number, depth: number): void {
    if (kind === P_RPAREN && depth < MAX_FRAMES) {
      this.calledRoot = (this.frames.flags[depth]! & FR_CALL) !== 0 ? this.frames.callRoots[depth]! : -1;
      if (this.frames.flags[depth]! & FR_ARGS) this.argsClosedSerial = this.serial;
    }
    if (kind === P_RBRACE && depth < MAX_FRAMES && this.frames.flags[depth]! & FR_TRY) this.endTry(depth);
    this.scope.close(kind, depth);
    const state = this.state;
    if (state.aliases.deepest >= depth) state.aliases.close(depth);
    if (state.constants.deepest >= depth) state.constants.close(depth);
  }

  // --- members in brackets ---------------------------------------------------------------------------

  private openBracket(depth: number): void {
    this.bracket = BR_OPEN;
    this.bracketDepth = depth;
  }

  private bracketLiteral(): void {
    const lexer = this.lexer;
    const text = lexer.stringValue();
    if (text === undefined) {
      this.bracketOff();
      return;
    }
    this.bracket = BR_LITERAL;
    this.bracketWord = lexer.stringWord();
    this.bracketText = text;
    this.bracketLine = lexer.stringLine();
    this.bracketColumn = lexer.stringColumn();
  }

  /** `window['local' + 'Storage']`: literals added together are read as the name they make. */
  private bracketConcat(): void {
    const text = this.lexer.stringValue();
    if (text === undefined || this.bracketText === undefined) {
      this.bracketOff();
      this.endChain();
      return;
    }
    this.bracket = BR_LITERAL;
    this.bracketText += text;
    const bytes = Buffer.from(this.bracketText);
    this.bracketWord = lookupWord(bytes, 0, bytes.length);
  }

  private bracketPunct(kind: number, depth: number): void {
    if (this.bracket === BR_LITERAL && kind === P_PLUS && depth === this.bracketDepth) {
      this.bracket = BR_PLUS;
      return;
    }
    if (this.bracket === BR_LITERAL && kind === P_RBRACKET && depth === this.bracketDepth) {
      this.bracket = BR_OFF;
      const chain = this.chain;
      const word = this.bracketWord;
      if (chain.length === 0) {
        chain.start(false, -1, depth - 1, 0);
        chain.interest = 0;
      }
      chain.dot = false;
      chain.push(word, undefined, 0, 0, this.bracketText, this.bracketLine, this.bracketColumn);
      if (word >= 0) chain.interest |= CHAIN_INTEREST[word]!;
      return;
    }
    this.bracketOff();
    this.endChain();
  }

  /** The bracket held a computed name: the chain before it ends (it was read, not called). */
  private bracketOff(): void {
    this.bracket = BR_OFF;
    const chain = this.chain;
    if (chain.length > 0) {
      const kind = this.tokenKind;
      const punct = this.tokenPunct;
      // Seen from the chain, what followed it was the `[`.
      this.tokenKind = K_PUNCT;
      this.tokenPunct = P_LBRACKET;
      this.endChain();
      this.tokenKind = kind;
      this.tokenPunct = punct;
    }
  }

  // --- object literals -----------------------------------------------------------------------------

  /** `depth`: where a name key stands, so that a `,` or `}` right after it makes a shorthand; -1 for a string key. */
  private keyCandidate(word: number, line: number, column: number, depth: number): void {
    this.keyWord = word;
    this.keyLine = line;
    this.keyColumn = column;
    this.keyDepth = depth;
  }

  private property(shorthand: boolean): void {
    const depth = this.lexer.depth;
    const word = this.keyWord;
    if (depth === 0 || depth >= MAX_FRAMES || this.lexer.frameKind() !== F_OBJECT) return;
    this.frames.keys[depth] = this.frames.keys[depth]! | PROPERTY_BIT[word]!;
    const argument = this.lexer.frameKind(depth - 1) === F_PAREN && (this.frames.flags[depth - 1]! & FR_ARGS) !== 0;
    const property = { key: word, line: this.keyLine, column: this.keyColumn, callTag: this.frames.ownTags[depth - 1]!, contextTag: this.frames.contextTags[depth]!, argument };
    const handlers = this.state.handlers;
    if (shorthand) this.shorthand = word;
    for (let bits = PROPERTY_INTEREST[word]!, i = 0; bits !== 0; bits >>>= 1, i++) {
      if (bits & 1) handlers[i]!.property?.(property);
    }
    this.shorthand = -1;
  }

  // --- declarations (for js-declarations.ts) ---------------------------------------------------------

  /** True when a chain is a global object, or reaches the bridge: `const p = window.pipeline`. */
  aliasable(words: readonly number[]): boolean {
    return isBridgeAliasTarget(words);
  }

  isGlobalRoot(word: number): boolean {
    return isGlobalObject(word);
  }
}

function endOf(punct: number, chain: ChainState): number {
  switch (punct) {
    case P_LPAREN:
      return END_CALL;
    case P_ASSIGN:
      return END_ASSIGN;
    case P_PLUS_ASSIGN:
      return END_PLUS_ASSIGN;
    case P_ARROW:
      return END_ARROW;
    case P_COLON:
      return chain.rooted && chain.length === 1 && (chain.lead === P_LBRACE || chain.lead === P_COMMA) ? END_KEY : END_OTHER;
    default:
      return END_OTHER;
  }
}
