import { decodeRange } from './chars.js';
import type { Chain } from './js-rule.js';
import { W } from './words.js';

/** Names kept per chain; rules look at the first few, a longer chain's tail reads as unknown. */
export const MAX_NAMES = 8;

/** True for the names that stand for the global object in a page. */
export function isGlobalObject(word: number): boolean {
  return word === W.window || word === W.globalThis || word === W.self || word === W.parent || word === W.top || word === W.frames;
}

/**
 * The member chain being read, kept as parallel arrays so that reading one costs no allocation.
 * A name's text is decoded only when a rule asks for it.
 */
export class ChainState implements Chain {
  length = 0;
  rooted = true;
  receiver = -1;
  end = 0;
  indirect = false;
  aliased = false;
  /** Names the alias stood for, at the start of the chain. */
  aliasLength = 0;
  /** The variable's own name, for a chain read through an alias. */
  aliasName = '';
  /** For a chain read through an imported name: the condition its findings wait on (JsFileState.conditions), else 0. */
  condition = 0;
  /** The chain is a whole argument of a call: after its `(` or a `,`, and ended by `,` or `)`. */
  argument = false;
  /** A `.` (or `?.`) was read: a member name may come next. */
  dot = false;
  /** OR of the interest bits of the names (which rules want this chain). */
  interest = 0;
  /** Bracket depth where the first name was read, and the punctuator before it. */
  depth = 0;
  lead = 0;

  private readonly words = new Int32Array(MAX_NAMES);
  private readonly starts = new Int32Array(MAX_NAMES);
  private readonly ends = new Int32Array(MAX_NAMES);
  private readonly lines = new Int32Array(MAX_NAMES);
  private readonly columns = new Int32Array(MAX_NAMES);
  private readonly buffers: Array<Uint8Array | undefined> = new Array(MAX_NAMES).fill(undefined);
  private readonly texts: Array<string | undefined> = new Array(MAX_NAMES).fill(undefined);
  /** The name the chain's expression is assigned to, as a getter (decoded only when asked), else undefined. */
  target: (() => string) | undefined = undefined;
  /** For a chain that is not rooted: the plain name right before its first `.`, as a getter, else undefined. */
  ownerName: (() => string) | undefined = undefined;

  start(rooted: boolean, receiver: number, depth: number, lead: number): void {
    this.length = 0;
    this.rooted = rooted;
    this.receiver = receiver;
    this.indirect = false;
    this.aliased = false;
    this.aliasLength = 0;
    this.condition = 0;
    this.argument = false;
    this.dot = false;
    this.interest = 0;
    this.depth = depth;
    this.lead = lead;
    this.target = undefined;
    this.ownerName = undefined;
  }

  owner(): string {
    return this.ownerName?.() ?? '';
  }

  assigned(): string {
    return this.target?.() ?? '';
  }

  /** Adds a name given by its bytes, or by its text (a literal in brackets, an alias's part). */
  push(word: number, bytes: Uint8Array | undefined, start: number, end: number, text: string | undefined, line: number, column: number): void {
    const i = this.length++;
    if (i >= MAX_NAMES) return;
    this.words[i] = word;
    this.buffers[i] = bytes;
    this.starts[i] = start;
    this.ends[i] = end;
    this.texts[i] = text;
    this.lines[i] = line;
    this.columns[i] = column;
  }

  word(i: number): number {
    return i < this.length && i < MAX_NAMES ? this.words[i]! : -1;
  }

  text(i: number): string {
    if (i >= this.length || i >= MAX_NAMES) return '';
    let text = this.texts[i];
    if (text === undefined) {
      text = decodeRange(this.buffers[i]!, this.starts[i]!, this.ends[i]!);
      this.texts[i] = text;
    }
    return text;
  }

  line(i: number): number {
    return this.lines[Math.min(i, MAX_NAMES - 1)]!;
  }

  column(i: number): number {
    return this.columns[Math.min(i, MAX_NAMES - 1)]!;
  }

  globalPrefix(): number {
    if (!this.rooted) return 0;
    let i = 0;
    while (i < this.length && i < MAX_NAMES && isGlobalObject(this.words[i]!)) i++;
    return i;
  }

  /** The names as words and texts, for a declaration that makes an alias of this chain. */
  snapshot(): { words: number[]; texts: string[] } {
    const n = Math.min(this.length, MAX_NAMES);
    const words: number[] = [];
    const texts: string[] = [];
    for (let i = 0; i < n; i++) {
      words.push(this.words[i]!);
      texts.push(this.text(i));
    }
    return { words, texts };
  }
}
