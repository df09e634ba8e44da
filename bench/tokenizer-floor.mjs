#!/usr/bin/env node
// node bench/tokenizer-floor.mjs [folder]: how fast a folder's scripts can be read on one thread,
// two ways, each in one warm process:
// - the code checks' tokenizer with nothing listening to its tokens (a handler that does nothing):
//   the floor under any full code check of those scripts, since the checks (scopes, member chains,
//   the rules) come on top of it;
// - a bare scan that follows only strings, comments, templates, regular expressions and brackets,
//   and counts `import` and `export` at the top level: about the least any reader of JavaScript
//   must do to find module statements. It is an estimate of that cost, not a checker: it guesses
//   where a regular expression starts from the token before it alone.
// Default folder: bench/.work/inputs/maxmin (run `npm run bench` once to make it); `npm run build`
// first, since the tokenizer is read from dist/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folder = path.resolve(process.argv[2] ?? path.join(root, 'bench/.work/inputs/maxmin'));
if (!existsSync(folder)) {
  console.error(`${folder} does not exist: run npm run bench first, or name a folder.`);
  process.exit(2);
}
const { JsLexer } = await import(new URL('../dist/core/code/js-lexer.js', import.meta.url).href);

function* scripts(dir) {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* scripts(full);
    else if (name.endsWith('.js')) yield full;
  }
}
const sources = [...scripts(folder)].map((file) => readFileSync(file));
const bytes = sources.reduce((sum, source) => sum + source.length, 0);
if (bytes === 0) {
  console.error(`${folder} holds no .js files.`);
  process.exit(2);
}
const nothing = () => {};
const handler = { name: nothing, punct: nothing, string: nothing, number: nothing, templateStart: nothing, templateEnd: nothing, regex: nothing, comment: nothing, finish: nothing };
// Chunks of 64 KiB, as the zip reader hands them on.
const CHUNK = 64 * 1024;
function bestOf(read) {
  const rounds = [];
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (const source of sources) read(source);
    rounds.push(performance.now() - start);
  }
  const best = Math.min(...rounds);
  return `${best.toFixed(0)} ms at best of 5 rounds (${(bytes / 1e3 / best).toFixed(0)} MB/s); first round, cold, ${rounds[0].toFixed(0)} ms`;
}

// Byte classes for the bare scan.
const NAME = new Uint8Array(256);
for (let c = 0; c < 256; c++) if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x24 || c === 0x5f || c >= 0x80) NAME[c] = 1;
const SPACE = 1;
const WORD = 2;
const QUOTE = 3;
const BACKTICK = 4;
const SLASH = 5;
const OPEN = 6;
const CLOSE = 7;
const BRACE_CLOSE = 8;
const OTHER = 9;
const CLASS = new Uint8Array(256).fill(OTHER);
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) CLASS[c] = SPACE;
for (let c = 0; c < 256; c++) if (NAME[c]) CLASS[c] = WORD;
CLASS[0x22] = CLASS[0x27] = QUOTE;
CLASS[0x60] = BACKTICK;
CLASS[0x2f] = SLASH;
CLASS[0x28] = CLASS[0x5b] = CLASS[0x7b] = OPEN;
CLASS[0x29] = CLASS[0x5d] = CLOSE;
CLASS[0x7d] = BRACE_CLOSE;
const EXPRESSION_WORDS = ['return', 'typeof', 'case', 'do', 'else', 'in', 'instanceof', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'of'].map((w) => Buffer.from(w));
const MODULE_WORDS = ['import', 'export'].map((w) => Buffer.from(w));

function isWord(b, i, j, words) {
  next: for (const w of words) {
    if (w.length !== j - i) continue;
    for (let k = 0; k < w.length; k++) if (b[i + k] !== w[k]) continue next;
    return true;
  }
  return false;
}

function bareScan(b) {
  const n = b.length;
  const templates = new Uint8Array(1 << 16); // 1 where a `${` opened the bracket at that depth
  let depth = 0;
  let value = false; // the token before ends an operand: a slash divides
  let found = 0;
  let i = 0;
  // Template text from `start`: where it ends (after the backtick), or the negated position after a `${`.
  const template = (start) => {
    for (let k = start; k < n; k++) {
      const d = b[k];
      if (d === 0x60) return k + 1;
      if (d === 0x5c) k++;
      else if (d === 0x24 && b[k + 1] === 0x7b) {
        depth++;
        templates[depth & 0xffff] = 1;
        return -(k + 2);
      }
    }
    return n;
  };
  while (i < n) {
    const c = b[i];
    switch (CLASS[c]) {
      case SPACE:
        i++;
        break;
      case WORD: {
        let j = i + 1;
        while (j < n && NAME[b[j]]) j++;
        if (depth === 0 && isWord(b, i, j, MODULE_WORDS)) found++;
        value = !isWord(b, i, j, EXPRESSION_WORDS);
        i = j;
        break;
      }
      case QUOTE: {
        let k = i + 1;
        while (k < n && b[k] !== c && b[k] !== 0x0a) k += b[k] === 0x5c ? 2 : 1;
        i = k + 1;
        value = true;
        break;
      }
      case BACKTICK:
      case BRACE_CLOSE: {
        if (c === 0x7d && !(depth > 0 && templates[depth & 0xffff] === 1)) {
          if (depth > 0) depth--;
          i++;
          value = false;
          break;
        }
        if (c === 0x7d) depth--;
        const r = template(i + 1);
        i = r < 0 ? -r : r;
        value = r >= 0;
        break;
      }
      case SLASH: {
        const d = b[i + 1];
        if (d === 0x2f) {
          const end = b.indexOf(0x0a, i);
          i = end < 0 ? n : end;
        } else if (d === 0x2a) {
          const end = b.indexOf('*/', i + 2);
          i = end < 0 ? n : end + 2;
        } else if (value) {
          i++;
          value = false;
        } else {
          let k = i + 1;
          let inClass = false;
          for (; k < n; k++) {
            const e = b[k];
            if (e === 0x5c) k++;
            else if (e === 0x0a) break;
            else if (inClass) inClass = e !== 0x5d;
            else if (e === 0x5b) inClass = true;
            else if (e === 0x2f) break;
          }
          k++;
          while (k < n && NAME[b[k]]) k++;
          i = k;
          value = true;
        }
        break;
      }
      case OPEN:
        depth++;
        templates[depth & 0xffff] = 0;
        i++;
        value = false;
        break;
      case CLOSE:
        if (depth > 0) depth--;
        i++;
        value = true;
        break;
      default:
        i++;
        value = false;
    }
  }
  return found;
}

console.log(`${sources.length} scripts, ${(bytes / 1e6).toFixed(1)} MB`);
console.log(
  `tokenizer, nothing listening: ${bestOf((source) => {
    const lexer = new JsLexer(handler);
    for (let at = 0; at < source.length; at += CHUNK) lexer.write(source.subarray(at, at + CHUNK));
    lexer.end();
  })}`,
);
console.log(`bare scan for module statements: ${bestOf(bareScan)}`);
