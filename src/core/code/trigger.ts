import { JS_NAME_PART } from './chars.js';

/*
 * Finds, in raw bytes, whether a JavaScript file names anything a check looks for. It is an
 * Aho-Corasick automaton compiled to a table of 256 next states per state: one table load per
 * byte, no decoding, and its state carries over from one chunk to the next, so a name cut by a
 * chunk boundary is still found. On the benchmark's minified code it ran at about twice the speed
 * of the equivalent regular expression (which also needs the bytes turned into a string first).
 *
 * A match inside a longer name (`HTMLElement`, `alerts`) or inside a string only costs a
 * tokenization; it never hides a finding. `write`, `writeln`, `import` and `export` are common
 * inside longer names (`writer`, `important`), so they count only when no name character follows.
 */
export const TRIGGER_WORDS = [
  'pipeline', 'alert', 'confirm', 'prompt', 'Storage', 'indexedDB', 'cookie', 'HTML', 'srcdoc', 'createContextualFragment',
  'lineType', 'productId', 'discountPercent',
];
/** Triggers that count only as a whole name (`import`, not `important`; `write`, not `writer`). */
const WHOLE_WORDS = ['write', 'writeln', 'import', 'export'];
/** jQuery's `.html(…)` matters only in a bundle that ships jQuery. */
export const JQUERY_TRIGGER = '.html(';

/** The bytes that cannot be part of a name. */
const NOT_NAME_PART: number[] = [];
for (let c = 0; c < 256; c++) if (!JS_NAME_PART[c]) NOT_NAME_PART.push(c);

const PLAIN = 1;
const WHOLE_NAME = 2;

/** A run after the first starts this far before its part: more than any word and the byte after it. */
const OVERLAP = 32;
/** Chunks shorter than four times this are read in one run. */
const LANE_MIN = 256;

/*
 * The automaton is compiled so that the search loop needs no test per byte: a state where a word
 * has been matched goes to ACCEPT, a state that never leaves; after a whole word, a byte that
 * cannot continue a name goes to ACCEPT too. The loop then reads eight bytes per test.
 */
function build(plain: readonly string[]) {
  const words = [...plain, ...WHOLE_WORDS];
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
    output[state] = WHOLE_WORDS.includes(word) ? WHOLE_NAME : PLAIN;
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
    // A plain word ending here wins over a whole word (it needs nothing after it).
    if (output[state] !== PLAIN && output[fail[state]!] !== 0) output[state] = Math.min(output[state] || WHOLE_NAME, output[fail[state]!]!);
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
  const accept = count;
  if (Math.max(...words.map((w) => w.length)) >= OVERLAP) throw new Error('a trigger word is longer than the overlap of the runs');
  // Offsets must fit in 16 bits: at most 255 states, which the words' total length bounds.
  if (accept > 255) throw new Error(`trigger automaton has ${accept + 1} states; at most 256 fit its table`);
  // A state is stored as its row's offset (number × 256), which saves a shift per byte.
  const states = new Uint16Array((count + 1) * 256);
  const pending = new Uint8Array(count + 1);
  // A byte outside the alphabet leads back to the root (0, as the table starts), except right after
  // a whole word, where one that cannot continue a name accepts; so only the alphabet's columns
  // need computing, which keeps this loop short.
  const endsName = NOT_NAME_PART;
  for (let s = 0; s < count; s++) {
    const row = s * 256;
    const whole = output[s] === WHOLE_NAME;
    if (whole) {
      for (const c of endsName) states[row + c] = accept * 256;
      // At a chunk's end right after a whole word, the next byte is unknown: count it as found.
      pending[s] = 1;
    }
    for (const c of alphabet) {
      const target = next[row + c]!;
      states[row + c] = (output[target] === PLAIN || (whole && !JS_NAME_PART[c]) ? accept : target) * 256;
    }
  }
  states.fill(accept * 256, accept * 256);
  return { states, pending, accept: accept * 256 };
}

type Automaton = ReturnType<typeof build>;
let plain: Automaton | undefined;
let withJquery: Automaton | undefined;

export class TriggerSearch {
  private state = 0;
  private readonly states: Uint16Array;
  private readonly pending: Uint8Array;
  private readonly accept: number;

  /** `jquery`: the bundle ships jQuery, so `.html(` is a trigger too. */
  constructor(jquery = false) {
    const automaton = jquery ? (withJquery ??= build([...TRIGGER_WORDS, JQUERY_TRIGGER])) : (plain ??= build(TRIGGER_WORDS));
    this.states = automaton.states;
    this.pending = automaton.pending;
    this.accept = automaton.accept;
  }

  /** True once a trigger has been seen in the bytes given so far. */
  found(bytes: Uint8Array): boolean {
    const t = this.states;
    const accept = this.accept;
    const n = bytes.length;
    let a = this.state;
    let i = 0;
    if (n >= 4 * LANE_MIN) {
      // Four runs at once, one per quarter: each table load waits for the one before it, and
      // independent chains of loads keep the processor busy. A run other than the first starts
      // from the root a little before its quarter, which is enough to see any word that ends in
      // it; the last one ends in the state the whole chunk leads to.
      const q = n >> 2;
      let j = q - OVERLAP;
      let k = 2 * q - OVERLAP;
      let l = 3 * q - OVERLAP;
      let b = 0;
      let c = 0;
      let d = 0;
      for (; i + 2 <= q; i += 2, j += 2, k += 2, l += 2) {
        a = t[a | bytes[i]!]!;
        b = t[b | bytes[j]!]!;
        c = t[c | bytes[k]!]!;
        d = t[d | bytes[l]!]!;
        a = t[a | bytes[i + 1]!]!;
        b = t[b | bytes[j + 1]!]!;
        c = t[c | bytes[k + 1]!]!;
        d = t[d | bytes[l + 1]!]!;
        if (a === accept || b === accept || c === accept || d === accept) return true;
      }
      // The quarters' ends (the first three overlap the next run by OVERLAP bytes, so need not).
      for (; l < n; l++) d = t[d | bytes[l]!]!;
      if (d === accept) return true;
      for (; i < q; i++) a = t[a | bytes[i]!]!;
      for (; j < 2 * q; j++) b = t[b | bytes[j]!]!;
      for (; k < 3 * q; k++) c = t[c | bytes[k]!]!;
      if (a === accept || b === accept || c === accept) return true;
      this.state = d;
      return this.pending[d >> 8] === 1;
    }
    for (; i < n; i++) a = t[a | bytes[i]!]!;
    this.state = a;
    return a === accept || this.pending[a >> 8] === 1;
  }
}
