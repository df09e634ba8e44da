import type { ChainState } from './js-chain.js';
import { scopeBit, type JsFileState, type Use } from './js-file.js';
import { FR_CALL, FR_CONTROL, FR_PAREN, MAX_FRAMES, type Frames } from './js-frames.js';
import {
  P_ARROW,
  P_COMMA,
  P_LBRACE,
  P_LBRACKET,
  P_LPAREN,
  P_RBRACE,
  P_RBRACKET,
  P_RPAREN,
  P_SEMI,
  P_TEMPLATE_CLOSE,
  P_TEMPLATE_OPEN,
  type JsLexer,
} from './js-lexer.js';
import { END_ARROW, END_KEY, K_PUNCT } from './js-rule.js';

/*
 * Scope, per bracket frame: a name declared in a frame (a variable, a function, a class, a
 * parameter, an import) shadows the global of that name in the frame and the frames inside it.
 * A use of a global waits in the frame where it is read until that frame closes; by then every
 * declaration of the frame has been seen (function declarations and `var` are hoisted, so one
 * further down counts too), and the use moves out to the enclosing frame or is dropped. Whether
 * a parenthesis held parameters is known only at the token after it (`{` or `=>`).
 */

/** A parenthesis just closed: its parameters count if `{` or `=>` comes next. */
interface ClosedParen {
  /** Uses read inside it, dropped if it was a parameter list. */
  uses: Use[] | undefined;
  /** Names it binds if it was a parameter list, or declares for the block after it (`for (let …)`). */
  bindings: number;
  declared: number;
  control: boolean;
  /** Ends of object literals inside it, dropped if it was a parameter list (they were patterns). */
  objectEnds: Array<() => void> | undefined;
  /** Names of bridge aliases it binds if it was a parameter list: the parameters hide them. */
  aliasNames: string[] | undefined;
}

/** Object ends a parenthesis holds at most until it is known not to be a parameter list. */
const MAX_HELD = 256;

export class Scope {
  private closedParen: ClosedParen | undefined;
  /** Names bound by an arrow function's parameters, until its body starts. */
  private arrowBindings = -1;
  /** Aliases an arrow function's parameters hide, until its body starts. */
  private arrowAliases: string[] | undefined;
  /**
   * Bodies of arrow functions without braces, the names their parameters bind, and where the
   * aliases they hide were hidden (given back when the body ends).
   */
  readonly arrowScopes: Array<{ depth: number; bindings: number; aliasMark: number }> = [];

  constructor(
    private readonly frames: Frames,
    private readonly state: JsFileState,
    private readonly lexer: JsLexer,
    /** Uses of globals read at the top level: the file's, or an inline module's own. */
    readonly rootUses: Use[],
  ) {}

  /** A parenthesis or an arrow waits for the next token. */
  get pending(): boolean {
    return this.closedParen !== undefined || this.arrowBindings >= 0;
  }

  use(use: Use): void {
    if (use.bit === 0) {
      this.state.report.add(use.ruleId, use.line, use.column, use.data, undefined, use.placeAt);
      return;
    }
    for (const scope of this.arrowScopes) if (scope.bindings & use.bit) return;
    const depth = this.lexer.depth;
    if (depth >= MAX_FRAMES) return;
    if (depth === 0) this.rootUses.push(use);
    else (this.frames.uses[depth] ??= []).push(use);
  }

  /** Marks names as declared in the frame at `depth`. */
  declare(depth: number, bits: number): void {
    const declared = this.frames.declared;
    if (bits !== 0 && depth < declared.length) declared[depth] = declared[depth]! | bits;
  }

  /** A single name ending here may be a parameter (or, with `=>`, an arrow's only parameter). */
  noteBinding(chain: ChainState, end: number): void {
    if (chain.aliased && chain.rooted && chain.length === chain.aliasLength && end !== END_KEY) {
      // A parameter named like a bridge alias (`(p) => …` after `const p = window.pipeline`).
      if (end === END_ARROW) this.arrowAliases = [chain.aliasName];
      else if (chain.depth < MAX_FRAMES) (this.frames.aliasParams[chain.depth] ??= []).push(chain.aliasName);
      return;
    }
    if (!chain.rooted || chain.length !== 1 || chain.aliased || end === END_KEY) return;
    const bit = scopeBit(chain.word(0));
    if (bit === 0) return;
    const bindings = this.frames.bindings;
    if (end === END_ARROW) this.arrowBindings = bit;
    else if (chain.depth < bindings.length) bindings[chain.depth] = bindings[chain.depth]! | bit;
  }

  /** What a closed parenthesis or an arrow left for the token after it (of this kind and punctuator). */
  settle(kind: number, punct: number): void {
    const brace = kind === K_PUNCT && punct === P_LBRACE;
    const arrow = kind === K_PUNCT && punct === P_ARROW;
    const opener = kind === K_PUNCT && (punct === P_LPAREN || punct === P_LBRACKET || punct === P_LBRACE || punct === P_TEMPLATE_OPEN);
    const depth = this.lexer.depth;
    const closed = this.closedParen;
    if (closed) {
      this.closedParen = undefined;
      if (!closed.control && (brace || arrow)) {
        if (brace) {
          this.declare(depth, closed.bindings | closed.declared);
          if (closed.aliasNames) this.hideAliases(closed.aliasNames, depth);
        } else {
          this.arrowBindings = closed.bindings | closed.declared;
          this.arrowAliases = closed.aliasNames;
        }
      } else {
        if (closed.control && brace) this.declare(depth, closed.declared);
        if (closed.uses) this.frames.moveUses(this.rootUses, closed.uses, depth - (opener ? 1 : 0));
        if (closed.objectEnds) for (const done of closed.objectEnds) done();
      }
      return;
    }
    if (this.arrowBindings >= 0 && !arrow) {
      const bindings = this.arrowBindings;
      const aliases = this.arrowAliases;
      this.arrowBindings = -1;
      this.arrowAliases = undefined;
      if (bindings === 0 && !aliases) return;
      if (brace) {
        this.declare(depth, bindings);
        if (aliases) this.hideAliases(aliases, depth);
      } else {
        const aliasMark = this.state.aliases.mark();
        if (aliases) this.hideAliases(aliases, depth);
        this.arrowScopes.push({ depth: depth - (opener ? 1 : 0), bindings, aliasMark });
      }
    }
  }

  private hideAliases(names: readonly string[], depth: number): void {
    for (const name of names) this.state.aliases.set(name, undefined, depth);
  }

  /** An arrow function's body without braces ends at `,`, `;` or a closing bracket of its level. */
  endArrowScopes(kind: number, depth: number): void {
    const scopes = this.arrowScopes;
    const closer = kind === P_RPAREN || kind === P_RBRACKET || kind === P_RBRACE || kind === P_TEMPLATE_CLOSE;
    while (scopes.length > 0) {
      const top = scopes[scopes.length - 1]!;
      const ends = depth < top.depth || (depth === top.depth && (kind === P_COMMA || kind === P_SEMI || closer));
      if (!ends) return;
      this.state.aliases.rewind(scopes.pop()!.aliasMark);
    }
  }

  /** The frame at `depth` closes (the lexer has not popped it yet). */
  close(kind: number, depth: number): void {
    if (depth === 0 || depth >= MAX_FRAMES) return;
    const ends = this.frames.objectEnds[depth];
    if (ends) {
      this.frames.objectEnds[depth] = undefined;
      const keys = this.frames.keys[depth]!;
      // `function f({ qty, unitPrice })`, `({ productId }) => …`: in a parenthesis that may turn out
      // to be a parameter list, an object may be a pattern; its end waits for that to be known.
      const held = (this.frames.flags[depth - 1]! & (FR_PAREN | FR_CALL | FR_CONTROL)) === FR_PAREN ? (this.frames.heldObjectEnds[depth - 1] ??= []) : undefined;
      // No parameter list holds hundreds of patterns: past that, the objects are read as objects.
      if (held && held.length < MAX_HELD) for (const done of ends) held.push(() => done(keys));
      else for (const done of ends) done(keys);
    }
    const declared = this.frames.declared[depth]!;
    let uses = this.frames.uses[depth];
    if (uses) {
      this.frames.uses[depth] = undefined;
      uses = uses.filter((use) => (declared & use.bit) === 0);
      if (uses.length === 0) uses = undefined;
    }
    const flags = this.frames.flags[depth]!;
    if (kind === P_RPAREN && (flags & FR_PAREN) !== 0) {
      // Whether this was a parameter list is known at the next token (when it matters at all).
      const bindings = this.frames.bindings[depth]!;
      const objectEnds = this.frames.heldObjectEnds[depth];
      const aliasNames = this.frames.aliasParams[depth];
      if (objectEnds) this.frames.heldObjectEnds[depth] = undefined;
      if (aliasNames) this.frames.aliasParams[depth] = undefined;
      if (uses || bindings !== 0 || declared !== 0 || objectEnds || aliasNames) this.closedParen = { uses, bindings, declared, control: (flags & FR_CONTROL) !== 0, objectEnds, aliasNames };
      return;
    }
    // Names bound inside a destructuring pattern belong to the parameter list around it.
    if (this.frames.bindings[depth] !== 0) this.frames.bindings[depth - 1] = this.frames.bindings[depth - 1]! | this.frames.bindings[depth]!;
    const aliasNames = this.frames.aliasParams[depth];
    if (aliasNames) {
      this.frames.aliasParams[depth] = undefined;
      (this.frames.aliasParams[depth - 1] ??= []).push(...aliasNames);
    }
    // Ends held by a bracket other than a parenthesis (a mismatched closer) are run now.
    const held = this.frames.heldObjectEnds[depth];
    if (held) {
      this.frames.heldObjectEnds[depth] = undefined;
      for (const done of held) done();
    }
    if (uses) this.frames.moveUses(this.rootUses, uses, depth - 1);
  }

}
