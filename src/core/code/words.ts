// The JavaScript names the checks care about, each with a small number. Looking a name up costs a
// hash of its bytes and one table probe, and names of one letter (most of minified code) are not
// even hashed, so no string is made for an ordinary identifier.

export const WORDS = [
  // Keywords after which a `/` starts a regular expression rather than dividing. `await` and
  // `yield` are names in sloppy scripts outside async functions and generators, but rarely are.
  'return', 'typeof', 'instanceof', 'in', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else',
  'await', 'yield', 'of',
  // Keywords before `(` whose `)` may be followed by a statement, and so by a regular expression.
  'if', 'while', 'for', 'with',
  // Keywords before `(` that are not a call (`switch`) or whose parentheses bind names (`catch`).
  'switch', 'catch',
  // Keywords before `{` that open a block.
  'try', 'finally',
  // Declarations.
  'var', 'let', 'const', 'function', 'class',
  // Module syntax.
  'import', 'export', 'from', 'as',
  // Objects that stand for the global scope.
  'window', 'globalThis', 'self', 'parent', 'top', 'frames',
  // What the checks look for.
  'pipeline', 'document', 'alert', 'confirm', 'prompt', 'call', 'apply', 'localStorage', 'sessionStorage', 'indexedDB',
  'cookie', 'innerHTML', 'outerHTML', 'insertAdjacentHTML', 'write', 'writeln', 'srcdoc', 'createContextualFragment',
  'setHTMLUnsafe', 'Object', 'assign', 'html', '$', 'jQuery', 'lineType', 'productId',
  'qty', 'unitPrice', 'taxRate', 'discountPercent', 'lines',
  // HTML given to the DOM by frameworks, elements whose text is not markup, and values that clear.
  'dangerouslySetInnerHTML', '__html', 'createElement', 'type', 'null', 'undefined',
] as const;

export type Word = (typeof WORDS)[number];

/** The number of a word, by name, for readable comparisons in the checks. */
export const W = Object.fromEntries(WORDS.map((word, index) => [word, index])) as { readonly [K in Word]: number };

export const MAX_WORD_LENGTH = Math.max(...WORDS.map((w) => w.length));

const DOLLAR_WORD = WORDS.indexOf('$');

const SLOTS = 1024;
const slotWord = new Int16Array(SLOTS).fill(-1);
const wordBytes = WORDS.map((w) => Buffer.from(w, 'latin1'));

/** Hash of a byte range; the same function fills the table and looks names up. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + bytes[i]!) | 0;
  return h;
}

function slotOf(hash: number): number {
  return (hash ^ (hash >>> 10)) & (SLOTS - 1);
}

/** 1 where some word has this length and first byte: most names are ruled out before hashing. */
const lengthAndFirst = new Uint8Array((MAX_WORD_LENGTH + 1) * 256);
for (const word of WORDS) lengthAndFirst[word.length * 256 + word.charCodeAt(0)] = 1;

for (let id = 0; id < WORDS.length; id++) {
  const bytes = wordBytes[id]!;
  let slot = slotOf(hashBytes(bytes, 0, bytes.length));
  while (slotWord[slot] !== -1) slot = (slot + 1) & (SLOTS - 1);
  slotWord[slot] = id;
}

/** The number of the word spelled by `bytes[start, end)`, or -1. */
export function lookupWord(bytes: Uint8Array, start: number, end: number): number {
  const length = end - start;
  // `$` is the only one-letter word: jQuery's name.
  if (length === 1) return bytes[start] === 0x24 ? DOLLAR_WORD : -1;
  if (length < 2 || length > MAX_WORD_LENGTH || lengthAndFirst[length * 256 + bytes[start]!] === 0) return -1;
  let slot = slotOf(hashBytes(bytes, start, end));
  for (;;) {
    const id = slotWord[slot]!;
    if (id < 0) return -1;
    const word = wordBytes[id]!;
    if (word.length === length) {
      let same = true;
      for (let k = 0; k < length; k++) {
        if (word[k] !== bytes[start + k]) {
          same = false;
          break;
        }
      }
      if (same) return id;
    }
    slot = (slot + 1) & (SLOTS - 1);
  }
}
