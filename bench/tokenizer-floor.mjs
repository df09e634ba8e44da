#!/usr/bin/env node
// node bench/tokenizer-floor.mjs [folder]: how fast the code checks' tokenizer reads a folder's
// scripts when nothing listens to its tokens (a handler that does nothing), in one warm process.
// It is the floor under any full code check of those scripts on one thread: the checks themselves
// (scopes, member chains, the rules) come on top of it. Default folder: bench/.work/inputs/maxmin
// (run `npm run bench` once to make it); `npm run build` first, since it reads dist/.
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
const rounds = [];
for (let round = 0; round < 5; round++) {
  const start = performance.now();
  for (const source of sources) {
    const lexer = new JsLexer(handler);
    for (let at = 0; at < source.length; at += CHUNK) lexer.write(source.subarray(at, at + CHUNK));
    lexer.end();
  }
  rounds.push(performance.now() - start);
}
const best = Math.min(...rounds);
console.log(`${sources.length} scripts, ${(bytes / 1e6).toFixed(1)} MB: the tokenizer alone takes ${best.toFixed(0)} ms at best of 5 rounds (${(bytes / 1e3 / best).toFixed(0)} MB/s); first round, cold, ${rounds[0].toFixed(0)} ms`);
