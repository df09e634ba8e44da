import { JS_NAME_PART } from './chars.js';

/*
 * Finds, in raw bytes, whether a JavaScript file names anything a check looks for. It is an
 * Aho-Corasick automaton compiled to a table of 256 next states per state: one table load per
 * byte, no decoding, and its state carries over from one chunk to the next, so a name cut by a
 * chunk boundary is still found. On the benchmark's minified code it ran at about twice the speed
 * of the equivalent regular expression (which also needs the bytes turned into a string first).
 *
 * A match inside a longer name (`HTMLElement`, `alerts`) or inside a string only costs a
 * tokenization; it never hides a finding. `write` alone is common as part of `writer`, so it
 * counts only as a whole name (`write` or `writeln`).
 */
export const TRIGGER_WORDS = [
  'pipeline', 'alert', 'confirm', 'prompt', 'Storage', 'indexedDB', 'cookie', 'HTML', 'write', 'srcdoc', 'createContextualFragment',
  'lineType', 'productId', 'discountPercent', 'import', 'export',
];
/** Triggers that count only as a whole name (`import`, not `important`). */
const WHOLE_WORDS = new Set(['write', 'import', 'export']);
/** jQuery's `.html(…)` matters only in a bundle that ships jQuery. */
export const JQUERY_TRIGGER = '.html(';

const PLAIN = 1;
const WHOLE_NAME = 2;
const WRITE = 3;

function build(words: readonly string[]) {
  // Only bytes that occur in a word can move the automaton off its root: for every other byte each
  // state goes back to the root, row offset 0, which is what a fresh table holds. Filling only the
  // columns of those few bytes keeps this out of the start-up time of every run.
  const alphabet = [...new Set(Buffer.from(words.join(''), 'latin1'))];
  const children: Array<Record<number, number>> = [{}];
  const output = [0];
  for (const word of words) {
    let state = 0;
    for (const byte of Buffer.from(word, 'latin1')) {
      let target = children[state]![byte];
      if (target === undefined) {
        target = children.length;
        children.push({});
        output.push(0);
        children[state]![byte] = target;
      }
      state = target;
    }
    output[state] = word === 'write' ? WRITE : WHOLE_WORDS.has(word) ? WHOLE_NAME : PLAIN;
  }
  // Breadth first, so that a state's fallback (the longest suffix that is also a prefix) is
  // complete before the states below it need it.
  const count = children.length;
  const next = new Int32Array(count * 256);
  const fail = new Int32Array(count);
  const queue: number[] = [];
  for (const c of alphabet) {
    const target = children[0]![c] ?? 0;
    next[c] = target;
    if (target !== 0) queue.push(target);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    if (output[state] === 0) output[state] = output[fail[state]!]!;
    for (const c of alphabet) {
      const target = children[state]![c];
      if (target === undefined) next[state * 256 + c] = next[fail[state]! * 256 + c]!;
      else {
        fail[target] = next[fail[state]! * 256 + c]!;
        next[state * 256 + c] = target;
        queue.push(target);
      }
    }
  }
  // Renumber so that every accepting state comes last: one comparison per byte tells a match.
  // The sort is stable, so the root keeps number 0 and the untouched columns stay right.
  const order = [...Array(count).keys()].sort((a, b) => Number(output[a]! > 0) - Number(output[b]! > 0));
  const renamed = new Array<number>(count);
  order.forEach((state, index) => (renamed[state] = index));
  // A state is stored as its row's offset (number × 256), which saves a shift per byte.
  // Offsets must fit in 16 bits: at most 255 states, which the words' total length bounds.
  if (count > 255) throw new Error(`trigger automaton has ${count} states; at most 255 fit its table`);
  const states = new Uint16Array(count * 256);
  const kinds = new Uint8Array(count);
  for (let s = 0; s < count; s++) {
    kinds[renamed[s]!] = output[s]!;
    for (const c of alphabet) states[renamed[s]! * 256 + c] = renamed[next[s * 256 + c]!]! * 256;
  }
  return { states, kinds, firstAccepting: order.findIndex((s) => output[s]! > 0) * 256 };
}

type Automaton = ReturnType<typeof build>;
let plain: Automaton | undefined;
let withJquery: Automaton | undefined;

export class TriggerSearch {
  private state = 0;
  private readonly states: Uint16Array;
  private readonly kinds: Uint8Array;
  private readonly firstAccepting: number;

  /** `jquery`: the bundle ships jQuery, so `.html(` is a trigger too. */
  constructor(jquery = false) {
    const automaton = jquery ? (withJquery ??= build([...TRIGGER_WORDS, JQUERY_TRIGGER])) : (plain ??= build(TRIGGER_WORDS));
    this.states = automaton.states;
    this.kinds = automaton.kinds;
    this.firstAccepting = automaton.firstAccepting;
  }

  /** True once a trigger has been seen in the bytes given so far. */
  found(bytes: Uint8Array): boolean {
    const states = this.states;
    const first = this.firstAccepting;
    let s = this.state;
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      s = states[s | bytes[i]!]!;
      if (s >= first && this.accepts(this.kinds[s >> 8]!, bytes, i)) return true;
    }
    this.state = s;
    return false;
  }

  private accepts(kind: number, bytes: Uint8Array, end: number): boolean {
    if (kind === PLAIN) return true;
    const a = end + 1 < bytes.length ? bytes[end + 1]! : -1;
    if (kind === WHOLE_NAME) return a < 0 || !JS_NAME_PART[a];
    return this.wholeWrite(bytes, end);
  }

  /** After `write` at `end`: is it the whole name `write` or `writeln`? Unsure at a chunk's end. */
  private wholeWrite(bytes: Uint8Array, end: number): boolean {
    const after = (k: number) => (end + k < bytes.length ? bytes[end + k]! : -1);
    const a = after(1);
    if (a < 0 || !JS_NAME_PART[a]) return true;
    if (a !== 0x6c) return false;
    const b = after(2);
    if (b < 0) return true;
    if (b !== 0x6e) return false;
    const c = after(3);
    return c < 0 || !JS_NAME_PART[c];
  }
}
