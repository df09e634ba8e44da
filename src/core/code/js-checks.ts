import {
  allowedToolTypes,
  isDistinctiveMethodName,
  isMethod,
  isNamespace,
  looksLikeNamespace,
  methodsOf,
  nearestMethod,
  PROPERTIES,
  replacementOf,
} from './bridge-surface.js';
import { decodeRange } from './chars.js';
import type { FileReport } from './file-report.js';
import {
  JsLexer,
  P_ASSIGN,
  P_COLON,
  P_COMMA,
  P_DOT,
  P_LBRACE,
  P_LBRACKET,
  P_LPAREN,
  P_MINUS,
  P_OPT_DOT,
  P_PLUS,
  P_PLUS_ASSIGN,
  P_RBRACE,
  P_RBRACKET,
  P_RPAREN,
  P_SEMI,
  P_SPREAD,
  P_TEMPLATE_CLOSE,
  P_TEMPLATE_OPEN,
  type JsTokenHandler,
  type LexerOrigin,
} from './js-lexer.js';
import {
  BRIDGE_DEPRECATED,
  BRIDGE_LITERAL_RANGE,
  BRIDGE_TOOL_TYPE,
  BRIDGE_UNKNOWN_METHOD,
  BROWSER_STORAGE,
  DIALOG_CALL,
  UNSAFE_HTML,
} from './rule-ids.js';
import { W, WORDS } from './words.js';

/*
 * The JavaScript checks, as a state machine over the lexer's tokens. Every check recognises a short,
 * fixed shape of tokens (`window.pipeline.quotes.update(`, `.innerHTML = <not a literal>`,
 * `qty: -1,` inside `quotes.create(…)`), so no syntax tree is needed, and an ordinary token costs a
 * couple of comparisons. A member written `['name']` (a plain string or template literal in
 * brackets) is read as `.name`. What a token stream cannot see (a bridge method reached through a
 * variable assigned elsewhere, computed names such as `window[name]`) is listed in
 * docs/code-checks.md.
 */

/** What the scripts of one file share: a page's inline scripts run in one global scope. */
export class JsFileState {
  /** Names bound to the bridge (`const p = window.pipeline`) → '' for the root, else a namespace. */
  readonly aliases = new Map<string, string>();
  /** First bytes of the aliases' names, to skip the map for every other name. */
  readonly aliasFirstBytes = new Uint8Array(256);
  /** The file declares its own `pipeline` (a function, a class, or a variable not set to the bridge). */
  shadowsPipeline = false;
  /** Dialog names the file declares itself (`function alert() {…}`). */
  readonly declaredDialogs = new Set<number>();
  private readonly deferred: Array<{ kind: 'dialog' | 'bridge'; word: number; line: number; column: number; ruleId: string; data: Record<string, unknown> }> = [];

  constructor(
    readonly report: FileReport,
    /** The tool type the manifest gives, when known ('standalone' also when "type" is missing). */
    readonly toolType: string | undefined,
    readonly toolTypeDeclared: boolean,
  ) {}

  defer(kind: 'dialog' | 'bridge', word: number, line: number, column: number, ruleId: string, data: Record<string, unknown>): void {
    this.deferred.push({ kind, word, line, column, ruleId, data });
  }

  /** At the end of the file: findings that a declaration later in the file could still cancel. */
  flush(): void {
    for (const d of this.deferred) {
      if (d.kind === 'dialog' && this.declaredDialogs.has(d.word)) continue;
      if (d.kind === 'bridge' && this.shadowsPipeline) continue;
      this.report.add(d.ruleId, d.line, d.column, d.data);
    }
    this.deferred.length = 0;
  }
}

// Member chains.
const CH_NONE = 0;
const CH_GLOBAL = 1; // window / globalThis
const CH_ROOT = 2; // the bridge object
const CH_NS = 3; // bridge.namespace
const CH_METHOD = 4; // bridge.namespace.method
const CH_DOCUMENT = 5;
const CH_DIALOG = 6; // alert / window.alert
const CH_DOC_WRITE = 7; // document.write / writeln
const CH_HTML_PROP = 8; // .innerHTML / .outerHTML
const CH_INSERT_ADJ = 9; // .insertAdjacentHTML
const CH_LINE_TYPE = 10; // .lineType

const ROOT_GLOBAL = 1;
const ROOT_BARE = 2;
const ROOT_ALIAS = 3;

// Token kinds, for the watchers that look at "the next token".
const K_NAME = 1;
const K_STRING = 2;
const K_NUMBER = 3;
const K_PUNCT = 4;
const K_TEMPLATE_START = 5;
const K_TEMPLATE_END = 6;
const K_REGEX = 7;
const K_END = 8;

// Where a literal sits: the argument of which bridge call.
const CTX_NONE = 0;
const CTX_CREATE = 1;
const CTX_ADD_LINES = 2;

// Watching the value given to an HTML sink.
const SINK_OFF = 0;
const SINK_FIRST = 1; // the value's first token is next
const SINK_AFTER_LITERAL = 2; // a string was given; what follows decides
const SINK_IN_TEMPLATE = 3; // inside a template literal given as the value
const SINK_SKIP = 4; // an argument that is not checked

// Object keys and their literal values.
const VALUE_OFF = 0;
const VALUE_START = 1;
const VALUE_END = 2;

// `[` + a literal + `]` after a value: a member written in brackets.
const BR_OFF = 0;
const BR_OPEN = 1; // the `[` was just read
const BR_TEMPLATE = 2; // a template literal inside it has started
const BR_NAME = 3; // the literal was read; `]` must follow
const BR_CLOSE = 4; // the `]` being handled ends the member

// Declarations, for aliases and shadowing.
const DECL_OFF = 0;
const DECL_NAME = 1;
const DECL_EQ = 2;
const DECL_INIT = 3;
const DECL_PATTERN = 4; // inside `const { … }`
const DECL_PATTERN_EQ = 5; // after the pattern's `}`

// An element of a destructuring pattern, at the pattern's own depth.
const EL_START = 0; // a key may come
const EL_KEY = 1; // `key` read: `:`, `,` or `}` may follow
const EL_COLON = 2; // `key:` read: the local name may come
const EL_LOCAL = 3; // `key: local` read
const EL_SKIP = 4; // not a plain element (nested, default, rest, computed or quoted key)

/** Elements kept per destructuring pattern; a longer pattern's later elements are not followed. */
const MAX_PATTERN = 16;

const KEY_QTY = 1;
const KEY_UNIT_PRICE = 2;
const KEY_TAX_RATE = 4;

const MAX_LINES = 200;

interface SinkCall {
  depth: number;
  /** The argument that must be a literal, or -1 for all of them. */
  target: number;
  index: number;
  state: number;
  line: number;
  column: number;
  sink: string;
}

interface Candidate {
  depth: number;
  word: number;
  bare: boolean;
  line: number;
  column: number;
}

/** `key` or `key: local` in a destructuring pattern. */
interface PatternElement {
  key: string;
  keyWord: number;
  local: string;
  localWord: number;
  line: number;
  column: number;
}

interface RecordFinding {
  depth: number;
  ruleId: string;
  line: number;
  column: number;
  data: Record<string, unknown>;
}

export class JsChecks implements JsTokenHandler {
  readonly lexer: JsLexer;
  private readonly report: FileReport;

  // The member chain being read.
  private chain = CH_NONE;
  private chainDot = false;
  private chainRoot = 0;
  private chainWord = -1;
  private chainLine = 0;
  private chainColumn = 0;
  private chainNamespace = '';
  private chainMethod = '';
  /** Members read after the chain's first name. */
  private chainLength = 0;

  // Per-frame facts, indexed by the lexer's depth.
  private contexts = new Uint8Array(64);
  private keyMasks = new Uint8Array(64);

  // Dialog calls whose `(` is open, and one whose `)` just closed (a `{` next makes it a definition).
  private readonly candidates: Candidate[] = [];
  private closed: Candidate | undefined;

  // A bare storage name after `{` or `,`: an object key if `:` follows.
  private storageKey: { word: number; line: number; column: number } | undefined;

  // `.innerHTML =` / `+=`.
  private rhs = SINK_OFF;
  private rhsLine = 0;
  private rhsColumn = 0;
  private rhsSink = '';
  // document.write( / insertAdjacentHTML(.
  private readonly sinkCalls: SinkCall[] = [];

  // Object keys and literal values.
  private keyCandidate = -1;
  private keyLine = 0;
  private keyColumn = 0;
  private value = VALUE_OFF;
  private valueKey = -1;
  private valueSign = 1;
  private valueSigned = false;
  private valueNumber = 0;
  private valueIsCost = false;
  private valueLine = 0;
  private valueColumn = 0;
  private lineTypeAssign = false;
  private readonly recordFindings: RecordFinding[] = [];

  // A `lines: [ … ]` literal inside quotes.create.
  private linesDepth = 0;
  private linesCount = 0;
  private linesItem = false;
  private linesSpread = false;
  private linesLine = 0;
  private linesColumn = 0;

  // The argument frame a bridge call is about to open.
  private callContext = CTX_NONE;

  // A member written in brackets. Between its `[` and `]` only one literal token comes, which
  // changes none of the chain's fields but `chain` and `chainDot`: those are kept here.
  private bracket = BR_OFF;
  private bracketDepth = 0;
  private bracketChain = CH_NONE;
  private bracketWord = -1;
  private bracketText: string | undefined;
  private bracketLine = 0;
  private bracketColumn = 0;

  // Declarations.
  private decl = DECL_OFF;
  private declDepth = 0;
  private declBytes: Buffer | undefined;
  private declStart = 0;
  private declEnd = 0;
  private declWord = -1;
  /** The initializer is, so far, one member chain (what an alias needs). */
  private declPlain = false;
  /** The declaration binds a destructuring pattern rather than one name. */
  private declPattern = false;
  private patternDepth = 0;
  private element = EL_START;
  /** The element being read has its entry in `pattern` (false past MAX_PATTERN). */
  private elementKept = false;
  private readonly pattern: PatternElement[] = [];

  constructor(
    private readonly state: JsFileState,
    origin?: LexerOrigin,
  ) {
    this.report = state.report;
    this.lexer = new JsLexer(this, origin);
  }

  // --- tokens -----------------------------------------------------------------------------------

  name(bytes: Buffer, start: number, end: number, word: number, afterDot: boolean): void {
    this.watch(K_NAME, 0);
    const lexer = this.lexer;
    const previousPunct = lexer.previousPunct;

    if (this.decl !== DECL_OFF) this.declarationName(bytes, start, end, word);

    if (afterDot) {
      if (this.chainDot) {
        this.chainDot = false;
        if (this.member(bytes, start, end, word, undefined)) return;
      }
      this.chain = CH_NONE;
      if (word >= 0) this.propertyChain(word, lexer.fileLine(), lexer.fileColumn(start));
      return;
    }

    this.chain = CH_NONE;
    if (word >= 0) {
      if (previousPunct === P_LBRACE || previousPunct === P_COMMA) {
        if (isKeyWord(word)) {
          this.keyCandidate = word;
          this.keyLine = lexer.fileLine();
          this.keyColumn = lexer.fileColumn(start);
        }
      }
      const previousWord = lexer.previousWord;
      const declared = previousWord === W.function || previousWord === W.class;
      switch (word) {
        case W.window:
        case W.globalThis:
          this.startChain(CH_GLOBAL, ROOT_GLOBAL, word, lexer.fileLine(), lexer.fileColumn(start));
          return;
        case W.pipeline:
          if (declared) this.state.shadowsPipeline = true;
          else this.startChain(CH_ROOT, ROOT_BARE, word, lexer.fileLine(), lexer.fileColumn(start));
          return;
        case W.document:
          this.startChain(CH_DOCUMENT, 0, word, lexer.fileLine(), lexer.fileColumn(start));
          return;
        case W.alert:
        case W.confirm:
        case W.prompt:
          if (declared) this.state.declaredDialogs.add(word);
          else this.startChain(CH_DIALOG, ROOT_BARE, word, lexer.fileLine(), lexer.fileColumn(start));
          return;
        case W.localStorage:
        case W.sessionStorage:
        case W.indexedDB:
          if (declared) return;
          // A key or a local name of `const { … } =`: the initializer decides (endPattern).
          if (this.decl === DECL_PATTERN && lexer.depth === this.patternDepth && this.element !== EL_SKIP) return;
          if (previousPunct === P_LBRACE || previousPunct === P_COMMA) {
            this.storageKey = { word, line: lexer.fileLine(), column: lexer.fileColumn(start) };
          } else this.report.add(BROWSER_STORAGE, lexer.fileLine(), lexer.fileColumn(start), { api: WORDS[word] });
          return;
        case W.var:
        case W.let:
        case W.const:
          this.decl = DECL_NAME;
          this.declDepth = lexer.depth;
          return;
      }
    }
    if (this.state.aliases.size > 0 && this.state.aliasFirstBytes[bytes[start]!] === 1) {
      const target = this.state.aliases.get(bytes.toString('latin1', start, end));
      if (target !== undefined) {
        this.startChain(target === '' ? CH_ROOT : CH_NS, ROOT_ALIAS, -1, lexer.fileLine(), lexer.fileColumn(start));
        this.chainNamespace = target;
      }
    }
  }

  punct(kind: number, _at: number): void {
    this.watch(K_PUNCT, kind);
    const lexer = this.lexer;
    const depth = lexer.depth;

    if (this.decl !== DECL_OFF) this.declarationPunct(kind, depth);

    switch (kind) {
      case P_DOT:
      case P_OPT_DOT:
        if (this.chain !== CH_NONE) {
          if (this.chainDot && kind === P_OPT_DOT) return;
          this.chainDot = true;
        }
        return;
      case P_LPAREN:
        if (this.chain !== CH_NONE) this.call();
        this.chain = CH_NONE;
        this.chainDot = false;
        this.openFrame(depth);
        this.callContext = CTX_NONE;
        return;
      case P_LBRACKET:
        this.openBracket(depth);
        return;
      case P_LBRACE:
      case P_TEMPLATE_OPEN:
        this.chain = CH_NONE;
        this.chainDot = false;
        this.openFrame(depth);
        return;
      case P_RBRACKET:
        this.closeBracket(depth);
        return;
      case P_RPAREN:
      case P_RBRACE:
      case P_TEMPLATE_CLOSE:
        this.chain = CH_NONE;
        this.chainDot = false;
        this.closeFrame(kind, depth);
        return;
      case P_ASSIGN:
      case P_PLUS_ASSIGN:
        if (this.chain !== CH_NONE) this.assigned(kind);
        this.chain = CH_NONE;
        return;
      default:
        this.chain = CH_NONE;
        this.chainDot = false;
    }
  }

  /** `=` or `+=` after a chain. (Kept out of punct(), which is small enough to be inlined.) */
  private assigned(kind: number): void {
    if (this.chain === CH_HTML_PROP && !this.chainDot) {
      this.rhs = SINK_FIRST;
      this.rhsLine = this.chainLine;
      this.rhsColumn = this.chainColumn;
      this.rhsSink = WORDS[this.chainWord]!;
    } else if (this.chain === CH_LINE_TYPE && kind === P_ASSIGN) {
      this.lineTypeAssign = true;
      this.valueLine = this.chainLine;
      this.valueColumn = this.chainColumn;
    }
  }

  string(): void {
    this.watch(K_STRING, 0);
    this.chain = CH_NONE;
    const lexer = this.lexer;
    if ((lexer.previousPunct === P_LBRACE || lexer.previousPunct === P_COMMA) && lexer.stringSize() <= MAX_KEY_LENGTH) {
      const text = lexer.stringValue();
      const word = text === undefined ? undefined : KEY_WORDS.get(text);
      if (word !== undefined) {
        this.keyCandidate = word;
        this.keyLine = lexer.stringLine();
        this.keyColumn = lexer.stringColumn();
      }
    }
    if (this.lineTypeAssign) {
      this.lineTypeAssign = false;
      if (lexer.stringValue() === 'cost') this.deprecatedCost(this.valueLine, this.valueColumn);
    }
  }

  number(bytes: Buffer, start: number, end: number): void {
    this.watch(K_NUMBER, 0);
    this.chain = CH_NONE;
    if (this.value === VALUE_START) {
      this.value = VALUE_END;
      this.valueNumber = this.valueSign * parseNumber(bytes.toString('latin1', start, end));
    }
  }

  templateStart(): void {
    this.watch(K_TEMPLATE_START, 0);
    this.chain = CH_NONE;
  }

  templateEnd(): void {
    this.watch(K_TEMPLATE_END, 0);
  }

  regex(): void {
    this.watch(K_REGEX, 0);
    this.chain = CH_NONE;
  }

  comment(text: string, line: number, column: number, endLine: number): void {
    this.report.comment(text, line, column, endLine);
  }

  finish(): void {
    this.watch(K_END, 0);
    if (this.decl === DECL_INIT) this.endDeclaration(true);
  }

  // --- watchers of "the next token" ---------------------------------------------------------------

  /** Everything that waits for the token after a given one; called first for every token. */
  private watch(kind: number, punct: number): void {
    // The rarely active watchers are methods of their own: this one is inlined into every token.
    if (this.bracket !== BR_OFF) this.watchBracket(kind, punct);
    if (this.closed) this.watchClosedCall(kind, punct);
    if (this.storageKey) this.watchStorageKey(kind, punct);
    if (this.rhs !== SINK_OFF) this.watchAssignedHtml(kind, punct);
    if (this.sinkCalls.length > 0) this.watchSinkArgument(kind, punct);
    // Before the value watcher, which may start a new `lines` array on this very token.
    if (this.linesDepth > 0) this.watchLines(kind, punct);
    if (this.value !== VALUE_OFF) this.watchValue(kind, punct);
    if (this.keyCandidate >= 0) {
      if (kind === K_PUNCT && punct === P_COLON) this.startValue();
      this.keyCandidate = -1;
    }
    if (this.lineTypeAssign && kind !== K_STRING) this.lineTypeAssign = false;
  }

  /** The token after the `)` of a dialog call. */
  private watchClosedCall(kind: number, punct: number): void {
    const candidate = this.closed!;
    this.closed = undefined;
    // `alert(msg) {` is a method being defined, not a call.
    if (!(kind === K_PUNCT && punct === P_LBRACE)) this.dialog(candidate);
  }

  /** The token after a bare storage name that followed `{` or `,`. */
  private watchStorageKey(kind: number, punct: number): void {
    const key = this.storageKey!;
    this.storageKey = undefined;
    if (!(kind === K_PUNCT && punct === P_COLON)) this.report.add(BROWSER_STORAGE, key.line, key.column, { api: WORDS[key.word] });
  }

  /** The tokens after a `[` that may open a member name: one literal, then `]`. */
  private watchBracket(kind: number, punct: number): void {
    switch (this.bracket) {
      case BR_OPEN:
        if (kind === K_STRING) {
          this.bracketLiteral();
          return;
        }
        if (kind === K_TEMPLATE_START) {
          this.bracket = BR_TEMPLATE;
          return;
        }
        break;
      case BR_TEMPLATE:
        if (kind === K_TEMPLATE_END && this.lexer.plainTemplate()) {
          this.bracketLiteral();
          return;
        }
        break;
      case BR_NAME:
        if (kind === K_PUNCT && punct === P_RBRACKET && this.lexer.depth === this.bracketDepth) {
          // The chain before the `[` goes on, as it would after a dot (the declaration watcher,
          // which comes next, needs it).
          this.bracket = BR_CLOSE;
          this.chain = this.bracketChain;
          this.chainDot = this.chain !== CH_NONE;
          return;
        }
        break;
      default:
    }
    this.bracket = BR_OFF;
  }

  /** A `[`: after an operand (or `?.`) it may open a member name. */
  private openBracket(depth: number): void {
    const lexer = this.lexer;
    const optional = lexer.previousPunct === P_OPT_DOT;
    if ((lexer.afterValue() || optional) && (!this.chainDot || optional)) {
      this.bracket = BR_OPEN;
      this.bracketDepth = depth;
      this.bracketChain = this.chain;
    }
    this.chain = CH_NONE;
    this.chainDot = false;
    this.openFrame(depth);
  }

  private closeBracket(depth: number): void {
    this.closeFrame(P_RBRACKET, depth);
    if (this.bracket === BR_CLOSE) {
      this.bracket = BR_OFF;
      this.bracketMember(this.bracketWord, this.bracketText, this.bracketLine, this.bracketColumn);
    } else {
      this.chain = CH_NONE;
      this.chainDot = false;
    }
  }

  /** The literal inside `[…]`: kept when it could be a member some check follows. */
  private bracketLiteral(): void {
    const lexer = this.lexer;
    const word = lexer.stringWord();
    let text: string | undefined;
    // A bridge object's members may be any name; elsewhere only the names of WORDS matter.
    if (this.bracketChain === CH_ROOT || this.bracketChain === CH_NS) text = lexer.stringValue();
    if (word < 0 && text === undefined) {
      this.bracket = BR_OFF;
      return;
    }
    this.bracket = BR_NAME;
    this.bracketWord = word;
    this.bracketText = text;
    this.bracketLine = lexer.stringLine();
    this.bracketColumn = lexer.stringColumn();
  }

  private watchAssignedHtml(kind: number, punct: number): void {
    switch (this.rhs) {
      case SINK_FIRST:
        if (kind === K_STRING) this.rhs = SINK_AFTER_LITERAL;
        else if (kind === K_TEMPLATE_START) this.rhs = SINK_IN_TEMPLATE;
        else this.flagAssignedHtml();
        return;
      case SINK_IN_TEMPLATE:
        if (kind === K_PUNCT && punct === P_TEMPLATE_OPEN) this.flagAssignedHtml();
        else if (kind === K_TEMPLATE_END) this.rhs = SINK_AFTER_LITERAL;
        return;
      default:
        // A plain literal is followed by the end of the statement or of the enclosing expression.
        this.rhs = SINK_OFF;
        if (kind === K_END || this.lexer.newlineBefore || (kind === K_PUNCT && isTerminator(punct))) return;
        this.flagAssignedHtml();
    }
  }

  private flagAssignedHtml(): void {
    this.rhs = SINK_OFF;
    this.report.add(UNSAFE_HTML, this.rhsLine, this.rhsColumn, { sink: this.rhsSink });
  }

  private watchSinkArgument(kind: number, punct: number): void {
    const call = this.sinkCalls[this.sinkCalls.length - 1]!;
    const depth = this.lexer.depth;
    const atCallLevel = depth === call.depth;
    const closes = kind === K_PUNCT && punct === P_RPAREN && atCallLevel;
    const nextArgument = kind === K_PUNCT && punct === P_COMMA && atCallLevel;
    switch (call.state) {
      case SINK_FIRST:
        if (closes) return; // no argument at all
        if (kind === K_STRING) call.state = SINK_AFTER_LITERAL;
        else if (kind === K_TEMPLATE_START) call.state = SINK_IN_TEMPLATE;
        else this.flagSinkCall(call);
        return;
      case SINK_IN_TEMPLATE:
        if (kind === K_PUNCT && punct === P_TEMPLATE_OPEN) this.flagSinkCall(call);
        else if (kind === K_TEMPLATE_END) call.state = SINK_AFTER_LITERAL;
        return;
      case SINK_AFTER_LITERAL:
        if (closes) return;
        if (nextArgument) this.nextSinkArgument(call);
        else this.flagSinkCall(call);
        return;
      case SINK_SKIP:
        if (nextArgument) this.nextSinkArgument(call);
        return;
      default:
    }
  }

  private nextSinkArgument(call: SinkCall): void {
    call.index++;
    call.state = call.target < 0 || call.target === call.index ? SINK_FIRST : SINK_SKIP;
  }

  private flagSinkCall(call: SinkCall): void {
    call.state = SINK_OFF;
    this.report.add(UNSAFE_HTML, call.line, call.column, { sink: call.sink });
  }

  private startValue(): void {
    this.value = VALUE_START;
    this.valueKey = this.keyCandidate;
    this.valueLine = this.keyLine;
    this.valueColumn = this.keyColumn;
    this.valueSign = 1;
    this.valueSigned = false;
    this.valueIsCost = false;
    this.keyCandidate = -1;
    const depth = this.lexer.depth;
    if (depth < this.keyMasks.length) {
      const bit = this.valueKey === W.qty ? KEY_QTY : this.valueKey === W.unitPrice ? KEY_UNIT_PRICE : this.valueKey === W.taxRate ? KEY_TAX_RATE : 0;
      this.keyMasks[depth] = this.keyMasks[depth]! | bit;
    }
    if (this.valueKey === W.productId) {
      const context = this.context(depth);
      const data = { use: 'productId' };
      if (context === CTX_ADD_LINES) this.report.add(BRIDGE_DEPRECATED, this.valueLine, this.valueColumn, data);
      else if (context === CTX_NONE) this.recordFindings.push({ depth, ruleId: BRIDGE_DEPRECATED, line: this.valueLine, column: this.valueColumn, data });
    }
  }

  private watchValue(kind: number, punct: number): void {
    if (this.value === VALUE_START) {
      if (kind === K_PUNCT && punct === P_COLON) return; // the `:` that started it
      if (kind === K_PUNCT && (punct === P_MINUS || punct === P_PLUS) && !this.valueSigned) {
        this.valueSigned = true;
        if (punct === P_MINUS) this.valueSign = -1;
        return;
      }
      if (kind === K_NUMBER) return; // number() records it
      if (kind === K_STRING && !this.valueSigned) {
        this.valueIsCost = this.valueKey === W.lineType && this.lexer.stringValue() === 'cost';
        this.value = this.valueIsCost ? VALUE_END : VALUE_OFF;
        return;
      }
      // The lexer has already pushed the `[`; the key belongs to the frame around it.
      if (kind === K_PUNCT && punct === P_LBRACKET && this.valueKey === W.lines && this.context(this.lexer.depth - 1) === CTX_CREATE) {
        this.linesDepth = this.lexer.depth;
        this.linesCount = 0;
        this.linesItem = false;
        this.linesSpread = false;
        this.linesLine = this.valueLine;
        this.linesColumn = this.valueColumn;
      }
      this.value = VALUE_OFF;
      return;
    }
    // VALUE_END: the literal must be the whole value.
    this.value = VALUE_OFF;
    if (!(kind === K_PUNCT && (punct === P_COMMA || punct === P_RBRACE)) && kind !== K_END) return;
    if (this.valueIsCost) this.deprecatedCost(this.valueLine, this.valueColumn);
    else this.checkLiteral(this.valueKey, this.valueNumber, this.lexer.depth);
  }

  private watchLines(kind: number, punct: number): void {
    const depth = this.lexer.depth;
    if (kind === K_PUNCT && punct === P_RBRACKET && depth === this.linesDepth) {
      if (this.linesItem) this.linesCount++;
      this.linesDepth = 0;
      if (this.linesSpread) return;
      if (this.linesCount === 0 || this.linesCount > MAX_LINES) {
        this.report.add(BRIDGE_LITERAL_RANGE, this.linesLine, this.linesColumn, {
          method: 'quotes.create',
          field: 'lines',
          value: this.linesCount,
          allowed: 'from 1 to 200 lines',
        });
      }
      return;
    }
    if (depth < this.linesDepth) {
      this.linesDepth = 0; // closed by a mismatched bracket: give up
      return;
    }
    if (depth === this.linesDepth && kind === K_PUNCT && punct === P_COMMA) {
      if (this.linesItem) this.linesCount++;
      this.linesItem = false;
      return;
    }
    if (depth === this.linesDepth && kind === K_PUNCT && punct === P_SPREAD) this.linesSpread = true;
    this.linesItem = true;
  }

  // --- member chains ---------------------------------------------------------------------------

  private startChain(chain: number, root: number, word: number, line: number, column: number): void {
    this.chain = chain;
    this.chainDot = false;
    this.chainRoot = root;
    this.chainWord = word;
    this.chainLength = 0;
    this.chainLine = line;
    this.chainColumn = column;
  }

  /** A member written `['name']`, at `line` and `column`: read as `.name`. */
  private bracketMember(word: number, text: string | undefined, line: number, column: number): void {
    if (this.chainDot) {
      this.chainDot = false;
      if (this.member(undefined, 0, 0, word, text)) return;
    }
    this.chain = CH_NONE;
    if (word >= 0) this.propertyChain(word, line, column);
  }

  /** A member name that starts a chain of its own, on any object (`.innerHTML`, `.lineType`). */
  private propertyChain(word: number, line: number, column: number): void {
    if (word === W.innerHTML || word === W.outerHTML) this.startChain(CH_HTML_PROP, 0, word, line, column);
    else if (word === W.insertAdjacentHTML) this.startChain(CH_INSERT_ADJ, 0, word, line, column);
    else if (word === W.lineType) this.startChain(CH_LINE_TYPE, 0, word, line, column);
  }

  /** A member name after a chain's dot; true when the chain goes on. */
  private member(bytes: Buffer | undefined, start: number, end: number, word: number, text: string | undefined): boolean {
    this.chainLength++;
    switch (this.chain) {
      case CH_GLOBAL:
        if (word === W.pipeline) this.chain = CH_ROOT;
        else if (word === W.alert || word === W.confirm || word === W.prompt) {
          this.chain = CH_DIALOG;
          this.chainWord = word;
        } else if (word === W.document) this.chain = CH_DOCUMENT;
        else if (word === W.localStorage || word === W.sessionStorage || word === W.indexedDB) {
          this.report.add(BROWSER_STORAGE, this.chainLine, this.chainColumn, { api: WORDS[word] });
          this.chain = CH_NONE;
          return true;
        } else return false;
        return true;
      case CH_ROOT:
        this.chain = CH_NS;
        this.chainNamespace = text ?? decodeRange(bytes!, start, end);
        return true;
      case CH_NS:
        this.chain = CH_METHOD;
        this.chainMethod = text ?? decodeRange(bytes!, start, end);
        return true;
      case CH_DOCUMENT:
        if (word === W.cookie) {
          this.report.add(BROWSER_STORAGE, this.chainLine, this.chainColumn, { api: 'document.cookie' });
          this.chain = CH_NONE;
          return true;
        }
        if (word === W.write || word === W.writeln) {
          this.chain = CH_DOC_WRITE;
          this.chainWord = word;
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  /** A `(` right after a chain. */
  private call(): void {
    const depth = this.lexer.depth; // the new frame's depth
    switch (this.chain) {
      case CH_DIALOG:
        this.candidates.push({ depth, word: this.chainWord, bare: this.chainRoot === ROOT_BARE, line: this.chainLine, column: this.chainColumn });
        return;
      case CH_DOC_WRITE:
        this.sinkCalls.push({ depth, target: -1, index: 0, state: SINK_FIRST, line: this.chainLine, column: this.chainColumn, sink: `document.${WORDS[this.chainWord]!}` });
        return;
      case CH_INSERT_ADJ:
        this.sinkCalls.push({ depth, target: 1, index: 0, state: SINK_SKIP, line: this.chainLine, column: this.chainColumn, sink: 'insertAdjacentHTML' });
        return;
      case CH_NS:
      case CH_METHOD:
        this.bridgeCall();
        return;
      default:
    }
  }

  private bridgeCall(): void {
    const namespace = this.chainNamespace;
    const twoParts = this.chain === CH_METHOD;
    const qualified = twoParts ? `${namespace}.${this.chainMethod}` : namespace;
    const line = this.chainLine;
    const column = this.chainColumn;
    if (twoParts && isMethod(qualified)) {
      const toolType = this.state.toolType;
      if (toolType !== undefined && !allowedToolTypes(qualified).includes(toolType as never)) {
        this.report.add(BRIDGE_TOOL_TYPE, line, column, { method: qualified, toolType, declared: this.state.toolTypeDeclared });
      }
      const replacement = replacementOf(qualified);
      if (replacement) this.report.add(BRIDGE_DEPRECATED, line, column, { use: qualified, replacement });
      this.callContext = qualified === 'quotes.create' ? CTX_CREATE : qualified === 'quotes.addLines' ? CTX_ADD_LINES : CTX_NONE;
      return;
    }
    if (!twoParts && PROPERTIES.includes(namespace)) return;
    // `e(…)` where `e` once held the bridge: minified code reuses names, so this says nothing.
    if (this.chainRoot === ROOT_ALIAS && this.chainLength === 0) return;
    // A bare `pipeline` may be some library's own variable: only names that look like the bridge's
    // are taken as calls to it.
    const root = this.chainRoot;
    if (root !== ROOT_GLOBAL) {
      const bridgeLike = twoParts ? looksLikeNamespace(namespace) : isNamespace(namespace) || isDistinctiveMethodName(namespace);
      if (!bridgeLike) return;
    }
    const suggestion = twoParts ? nearestMethod(qualified) : nearestMethod(`${namespace}`);
    const data: Record<string, unknown> = { method: qualified };
    if (suggestion) data.suggestion = suggestion;
    else if (isNamespace(namespace)) data.methods = methodsOf(namespace);
    if (root === ROOT_BARE) this.state.defer('bridge', -1, line, column, BRIDGE_UNKNOWN_METHOD, data);
    else this.report.add(BRIDGE_UNKNOWN_METHOD, line, column, data);
  }

  private dialog(candidate: Candidate): void {
    const data = { name: WORDS[candidate.word] };
    if (candidate.bare) this.state.defer('dialog', candidate.word, candidate.line, candidate.column, DIALOG_CALL, data);
    else this.report.add(DIALOG_CALL, candidate.line, candidate.column, data);
  }

  // --- frames ------------------------------------------------------------------------------------

  private openFrame(depth: number): void {
    if (depth >= this.contexts.length) {
      if (depth >= 1 << 16) return;
      const contexts = new Uint8Array(this.contexts.length * 2);
      contexts.set(this.contexts);
      this.contexts = contexts;
      const masks = new Uint8Array(this.keyMasks.length * 2);
      masks.set(this.keyMasks);
      this.keyMasks = masks;
    }
    this.contexts[depth] = this.callContext !== CTX_NONE ? this.callContext : this.contexts[depth - 1]!;
    this.keyMasks[depth] = 0;
  }

  private closeFrame(kind: number, depth: number): void {
    const candidates = this.candidates;
    while (candidates.length > 0 && candidates[candidates.length - 1]!.depth >= depth) {
      const candidate = candidates.pop()!;
      if (candidate.depth === depth && kind === P_RPAREN) this.closed = candidate;
    }
    const calls = this.sinkCalls;
    while (calls.length > 0 && calls[calls.length - 1]!.depth >= depth) calls.pop();
    const records = this.recordFindings;
    if (records.length > 0) {
      const isRecord = kind === P_RBRACE && depth < this.keyMasks.length && (this.keyMasks[depth]! & (KEY_QTY | KEY_UNIT_PRICE)) === (KEY_QTY | KEY_UNIT_PRICE);
      while (records.length > 0 && records[records.length - 1]!.depth >= depth) {
        const record = records.pop()!;
        // Only an object shaped like an add-line record (it has qty and unitPrice) is one.
        if (isRecord && record.depth === depth) this.report.add(record.ruleId, record.line, record.column, record.data);
      }
    }
  }

  private context(depth: number): number {
    return depth < this.contexts.length ? this.contexts[depth]! : CTX_NONE;
  }

  // --- literal values ----------------------------------------------------------------------------

  private checkLiteral(key: number, value: number, depth: number): void {
    if (Number.isNaN(value)) return;
    const context = this.context(depth);
    const at = (method: string, allowed: string, hint?: string) => {
      const data: Record<string, unknown> = { method, field: WORDS[key], value, allowed };
      if (hint) data.hint = hint;
      this.report.add(BRIDGE_LITERAL_RANGE, this.valueLine, this.valueColumn, data);
    };
    if (context === CTX_CREATE) {
      if (key === W.qty && (value <= 0 || value > 10_000)) at('quotes.create', 'greater than 0 and at most 10000');
      else if (key === W.unitPrice && (value < 0 || value > 1_000_000)) at('quotes.create', 'from 0 to 1000000');
      else if (key === W.taxRate && value > 1) at('quotes.create', 'a fraction from 0 to 1', 'percentage');
      else if (key === W.taxRate && value < 0) at('quotes.create', 'a fraction from 0 to 1');
      return;
    }
    if (context === CTX_ADD_LINES) {
      if (key === W.qty && value <= 0) at('quotes.addLines', 'greater than 0');
      else if (key === W.unitPrice && value < 0) at('quotes.addLines', '0 or more');
      else if (key === W.taxRate && value < 0) at('quotes.addLines', '0 or more');
      else if (key === W.discountPercent && (value < 0 || value > 100)) at('quotes.addLines', 'from 0 to 100');
      return;
    }
    if (context === CTX_NONE && key === W.discountPercent && (value < 0 || value > 100)) {
      this.recordFindings.push({
        depth,
        ruleId: BRIDGE_LITERAL_RANGE,
        line: this.valueLine,
        column: this.valueColumn,
        data: { method: 'quotes.addLines', field: 'discountPercent', value, allowed: 'from 0 to 100' },
      });
    }
  }

  private deprecatedCost(line: number, column: number): void {
    this.report.add(BRIDGE_DEPRECATED, line, column, { use: "lineType: 'cost'", replacement: "lineType: 'jobcost'" });
  }

  // --- declarations ------------------------------------------------------------------------------

  private declarationName(bytes: Buffer, start: number, end: number, word: number): void {
    if (this.decl === DECL_INIT) {
      // A line break before a name at the declaration's depth: the statement ended without `;`.
      if (this.lexer.newlineBefore && this.lexer.depth === this.declDepth) this.endDeclaration(true);
      return;
    }
    switch (this.decl) {
      case DECL_NAME:
        if (word === W.alert || word === W.confirm || word === W.prompt) this.state.declaredDialogs.add(word);
        this.decl = DECL_EQ;
        this.declPattern = false;
        this.declBytes = bytes;
        this.declStart = start;
        this.declEnd = end;
        this.declWord = word;
        return;
      case DECL_PATTERN:
        if (this.lexer.depth === this.patternDepth) this.patternName(bytes, start, end, word);
        return;
      case DECL_EQ:
      case DECL_PATTERN_EQ:
        this.decl = DECL_OFF; // `for (const x of …)`, `for (const { a } in …)`
        return;
      default:
    }
  }

  private declarationPunct(kind: number, depth: number): void {
    // The initializer is where most tokens of a declaration are: its case comes first.
    if (this.decl === DECL_INIT) {
      const ends = kind === P_SEMI || ((kind === P_COMMA || kind === P_RPAREN || kind === P_RBRACE) && depth <= this.declDepth);
      if (!ends && depth >= this.declDepth) {
        this.declarationInitializerMoved();
        return;
      }
      this.endDeclaration(true);
      if (kind === P_COMMA && depth === this.declDepth) this.decl = DECL_NAME;
      return;
    }
    this.declarationHeadPunct(kind, depth);
  }

  /** A punctuator before a declaration's initializer. */
  private declarationHeadPunct(kind: number, depth: number): void {
    switch (this.decl) {
      case DECL_NAME:
        if (kind === P_LBRACE) {
          // `const { a, b: c } = …`. An array pattern is not followed.
          this.decl = DECL_PATTERN;
          this.declPattern = true;
          this.patternDepth = depth;
          this.element = EL_START;
          this.elementKept = false;
          this.pattern.length = 0;
        } else this.decl = DECL_OFF;
        return;
      case DECL_PATTERN:
        this.patternPunct(kind, depth);
        return;
      case DECL_PATTERN_EQ:
        if (kind === P_ASSIGN) {
          this.decl = DECL_INIT;
          this.declPlain = true;
        } else this.decl = DECL_OFF;
        return;
      case DECL_EQ:
        if (kind === P_ASSIGN) {
          this.decl = DECL_INIT;
          this.declPlain = true;
          // The initializer's chain starts with the next token.
          return;
        }
        if (kind === P_COMMA && depth === this.declDepth) {
          if (this.declWord === W.pipeline) this.state.shadowsPipeline = true;
          this.decl = DECL_NAME;
          return;
        }
        if (this.declWord === W.pipeline) this.state.shadowsPipeline = true;
        this.decl = DECL_OFF;
        return;
      default:
    }
  }

  /** The initializer went on past a first chain: it is not a plain alias. */
  private declarationInitializerMoved(): void {
    // Dots and member names keep the chain; anything else means "not just the bridge".
    if (this.chain === CH_NONE) this.declPlain = false;
  }

  /** A name at the pattern's own depth. */
  private patternName(bytes: Buffer, start: number, end: number, word: number): void {
    if (this.element === EL_START) {
      this.element = EL_KEY;
      this.elementKept = this.pattern.length < MAX_PATTERN;
      if (this.elementKept) {
        const key = bytes.toString('latin1', start, end);
        this.pattern.push({ key, keyWord: word, local: key, localWord: word, line: this.lexer.fileLine(), column: this.lexer.fileColumn(start) });
      }
    } else if (this.element === EL_COLON) {
      this.element = EL_LOCAL;
      if (this.elementKept) {
        const element = this.pattern[this.pattern.length - 1]!;
        element.local = bytes.toString('latin1', start, end);
        element.localWord = word;
      }
    } else this.skipElement();
  }

  /** A punctuator inside the pattern. Only its own depth counts; an opener below it skips the element. */
  private patternPunct(kind: number, depth: number): void {
    if (depth !== this.patternDepth) {
      // An opener has already pushed its frame: `{ a: { b } }`, `{ [k]: v }`, `{ a = f(x) }`.
      if (depth === this.patternDepth + 1 && (kind === P_LBRACE || kind === P_LBRACKET || kind === P_LPAREN || kind === P_TEMPLATE_OPEN)) this.skipElement();
      return;
    }
    if (kind === P_COMMA || kind === P_RBRACE) {
      if (this.element !== EL_KEY && this.element !== EL_LOCAL && this.element !== EL_START) this.skipElement();
      this.element = EL_START;
      this.elementKept = false;
      if (kind === P_RBRACE) this.decl = DECL_PATTERN_EQ;
      return;
    }
    if (kind === P_COLON && this.element === EL_KEY) this.element = EL_COLON;
    else this.skipElement(); // a default (`=`), a rest (`...`), a quoted or computed key
  }

  /** The element being read is not a plain one: it is not followed, and its names bind nothing known. */
  private skipElement(): void {
    if (this.elementKept && (this.element === EL_KEY || this.element === EL_COLON || this.element === EL_LOCAL)) this.pattern.pop();
    this.elementKept = false;
    this.element = EL_SKIP;
  }

  /**
   * `const { … } = <initializer>` has ended. `plain` when the initializer was one member chain
   * that ended on `window`/`globalThis` or on the bridge itself.
   */
  private endPattern(plain: boolean): void {
    const chain = plain && !this.chainDot ? this.chain : CH_NONE;
    for (const element of this.pattern) {
      if (chain === CH_GLOBAL) {
        // `const { localStorage, pipeline: p } = window`
        const key = element.keyWord;
        if (key === W.localStorage || key === W.sessionStorage || key === W.indexedDB) {
          this.report.add(BROWSER_STORAGE, element.line, element.column, { api: WORDS[key] });
        } else if (key === W.pipeline) this.addAlias(element.local, '');
        else if (key !== W.alert && key !== W.confirm && key !== W.prompt) this.bindsLocal(element);
      } else if (chain === CH_ROOT && !PROPERTIES.includes(element.key)) {
        // `const { quotes } = pipeline`, `const { quotes: q } = window.pipeline`
        this.addAlias(element.local, element.key);
      } else this.bindsLocal(element);
    }
    this.pattern.length = 0;
  }

  /** A local name the pattern binds to something that is not the browser's or the bridge's. */
  private bindsLocal(element: PatternElement): void {
    const word = element.localWord;
    if (word === W.alert || word === W.confirm || word === W.prompt) this.state.declaredDialogs.add(word);
    else if (word === W.pipeline) this.state.shadowsPipeline = true;
  }

  private addAlias(name: string, target: string): void {
    this.state.aliases.set(name, target);
    this.state.aliasFirstBytes[name.charCodeAt(0) & 0xff] = 1;
  }

  private endDeclaration(atTerminator: boolean): void {
    if (this.declPattern) {
      this.endPattern(atTerminator && this.declPlain && (this.chain === CH_GLOBAL || this.chain === CH_ROOT));
      this.decl = DECL_OFF;
      this.declPattern = false;
      return;
    }
    const bytes = this.declBytes;
    const isBridge = atTerminator && this.declPlain && bytes !== undefined && (this.chain === CH_ROOT || this.chain === CH_NS) && !this.chainDot;
    if (this.declWord === W.pipeline && !(isBridge && this.chain === CH_ROOT && this.chainRoot === ROOT_GLOBAL)) this.state.shadowsPipeline = true;
    if (isBridge && bytes) {
      const name = bytes.toString('latin1', this.declStart, this.declEnd);
      this.state.aliases.set(name, this.chain === CH_ROOT ? '' : this.chainNamespace);
      this.state.aliasFirstBytes[bytes[this.declStart]!] = 1;
    }
    this.decl = DECL_OFF;
    this.declBytes = undefined;
  }
}

const KEY_WORD_LIST = [W.lineType, W.productId, W.qty, W.unitPrice, W.taxRate, W.discountPercent, W.lines];
const KEY_WORDS = new Map<string, number>(KEY_WORD_LIST.map((w) => [WORDS[w]!, w]));
const MAX_KEY_LENGTH = Math.max(...KEY_WORD_LIST.map((w) => WORDS[w]!.length));

function isKeyWord(word: number): boolean {
  return KEY_WORD_LIST.includes(word);
}

function isTerminator(punct: number): boolean {
  return punct === P_SEMI || punct === P_COMMA || punct === P_RPAREN || punct === P_RBRACKET || punct === P_RBRACE || punct === P_TEMPLATE_CLOSE || punct === P_COLON;
}

/** A numeric literal's value (decimal, hex, octal, binary, with separators); NaN for BigInt. */
function parseNumber(text: string): number {
  const clean = text.replace(/_/g, '');
  if (/^0[0-7]+$/.test(clean)) return parseInt(clean, 8); // legacy octal
  return Number(clean);
}

