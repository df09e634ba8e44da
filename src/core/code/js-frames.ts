import type { Use } from './js-file.js';

/*
 * What the walker knows of each open bracket frame, indexed by depth: typed arrays grown on
 * demand, so that opening a frame allocates nothing. Scope lives here: the names a frame declares
 * and the uses of globals that wait for it to close.
 */

// Frame flags.
export const FR_PAREN = 1;
export const FR_CONTROL = 2; // the head of if/while/for/with/switch
export const FR_CALL = 4;
export const FR_ARGS = 8; // a `(` after a value: a call's arguments, or a method's or function's parameters
export const FR_TRY = 16; // the block of a `try`

/** Deeper frames are not tracked (a hostile file could nest without end). */
export const MAX_FRAMES = 1 << 16;

export class Frames {
  flags = new Uint8Array(64);
  /** Scope bits of the names declared in the frame. */
  declared = new Uint32Array(64);
  /** Scope bits of the names that would be parameters if the frame is a parameter list. */
  bindings = new Uint32Array(64);
  /** The tag a rule put on the call this frame is the arguments of, and the nearest one around. */
  ownTags = new Uint8Array(64);
  contextTags = new Uint8Array(64);
  /** The condition (JsFileState.conditions) of the tagged call around, when it was reached through an imported name. */
  contextConditions = new Int32Array(64);
  /** Property bits of the object literal's keys. */
  keys = new Uint32Array(64);
  /** First word of the chain this frame's call was made on. */
  callRoots = new Int32Array(64);
  /**
   * The depth of the innermost `try` block the frame is in, where a throw is caught (0: none). A
   * function's body starts again at 0: what it runs is not run where it is written.
   */
  guards = new Int32Array(64);
  /** Data of findings made inside the `try` block at this depth, to unmark if no `catch` follows it. */
  guarded: Array<Array<Record<string, unknown>> | undefined> = [];
  /** A number no other frame opened in the file has, for marks of scope (JsRuleContext.scopeMark). */
  serials = new Int32Array(64);
  private opened = 0;
  /** Uses of globals waiting for the frame to close. */
  uses: Array<Use[] | undefined> = [];
  objectEnds: Array<Array<(keys: number) => void> | undefined> = [];
  /**
   * Object-literal ends held by a parenthesis until it is known not to be a parameter list, and
   * names of bridge aliases that would be parameters if it is one. Rare, so not reset when a frame
   * opens: whoever reads them at the frame's close clears them.
   */
  heldObjectEnds: Array<Array<() => void> | undefined> = [];
  aliasParams: Array<string[] | undefined> = [];

  open(depth: number, flags: number, functionBody = false): void {
    if (depth >= this.flags.length) this.grow(depth);
    this.flags[depth] = flags;
    this.guards[depth] = flags & FR_TRY ? depth : functionBody ? 0 : this.guards[depth - 1]!;
    this.guarded[depth] = undefined;
    this.declared[depth] = 0;
    this.bindings[depth] = 0;
    this.ownTags[depth] = 0;
    this.contextTags[depth] = this.contextTags[depth - 1]!;
    this.contextConditions[depth] = this.contextConditions[depth - 1]!;
    this.keys[depth] = 0;
    this.callRoots[depth] = -1;
    this.serials[depth] = ++this.opened;
    this.uses[depth] = undefined;
    this.objectEnds[depth] = undefined;
  }

  /** Hands uses to the frame at `depth` (the top level's go to `rootUses`). */
  moveUses(rootUses: Use[], uses: Use[], depth: number): void {
    if (depth <= 0) rootUses.push(...uses);
    else if (depth < MAX_FRAMES) (this.uses[depth] ??= []).push(...uses);
  }

  private grow(depth: number): void {
    let size = this.flags.length;
    while (size <= depth) size *= 2;
    const grow8 = (a: Uint8Array) => {
      const b = new Uint8Array(size);
      b.set(a);
      return b;
    };
    const grow32 = (a: Uint32Array) => {
      const b = new Uint32Array(size);
      b.set(a);
      return b;
    };
    this.flags = grow8(this.flags);
    this.ownTags = grow8(this.ownTags);
    this.contextTags = grow8(this.contextTags);
    this.declared = grow32(this.declared);
    this.bindings = grow32(this.bindings);
    this.keys = grow32(this.keys);
    const roots = new Int32Array(size);
    roots.set(this.callRoots);
    this.callRoots = roots;
    const guards = new Int32Array(size);
    guards.set(this.guards);
    this.guards = guards;
    const serials = new Int32Array(size);
    serials.set(this.serials);
    this.serials = serials;
    const conditions = new Int32Array(size);
    conditions.set(this.contextConditions);
    this.contextConditions = conditions;
  }
}
