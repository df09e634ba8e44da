import buffer = require('node:buffer');
import fs = require('node:fs');
import nodeModule = require('node:module');
import path = require('node:path');
import vm = require('node:vm');
import zlib = require('node:zlib');

/*
 * CommonJS, like bin/pipeline-tool.js, which requires it: an ES module entry point costs Node about
 * a quarter of its own start-up again (its module loader), for nothing a CLI needs.
 *
 * Loads the CLI's bundles (dist/cli/*.cjs, written by scripts/build.mjs) with V8's code cache.
 *
 * Compiling the bundles is a large part of a short command such as `validate` of an ordinary
 * bundle: Node 20 has no compile cache for modules, so every run parsed and compiled them again.
 * The bundles are CommonJS and are compiled here with `vm.Script`, which takes the bytecode V8
 * saved from an earlier run (`<bundle>.cache`, written at build time by a run of the commands),
 * including that of every function that run called. A cache that V8 refuses (another Node
 * version, other V8 flags) is ignored and the bundle compiled from its source, as without one.
 *
 * V8 checks a cache against the source's length only, so each cache starts with the CRC-32 of
 * the source it was made from: a bundle edited after the build (a local patch, say) is compiled
 * from its source rather than run as the bytecode of what it used to be. Without zlib.crc32
 * (before Node 20.15) no cache is used.
 */

const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
const HEADER = 4;

interface Bundle {
  exports: unknown;
  script: vm.Script;
  source: Buffer;
  cache: string;
}

const bundles = new Map<string, Bundle>();

/** The exports of a bundle, loading it (and, as it asks, the bundles it requires) once. */
function loadBundle(file: string): unknown {
  const known = bundles.get(file);
  if (known) return known.exports;
  // The source is read between the function's head and tail, so that the script's text is made in
  // one piece: a text joined with them would be copied again, whole, before V8 can look it up.
  const wrapped = readBetween(file, WRAP_HEAD, WRAP_TAIL);
  const source = wrapped.subarray(WRAP_HEAD.length, wrapped.length - WRAP_TAIL.length);
  const cache = `${file}.cache`;
  // The build writes ASCII, which reads as Latin-1 at half the cost of decoding it as UTF-8.
  const text = buffer.isAscii(source) ? wrapped.toString('latin1') : wrapped.toString('utf8');
  const script = new vm.Script(text, {
    filename: file,
    cachedData: cachedData(cache, source),
  });
  const module: Bundle = { exports: {}, script, source, cache };
  bundles.set(file, module);
  const directory = path.dirname(file);
  const nodeRequire = nodeModule.createRequire(file);
  // Another bundle of the CLI (a command's, or main's from a command) is loaded here too.
  const require = Object.assign((id: string) => (id.startsWith('./') && id.endsWith('.cjs') ? loadBundle(path.join(directory, id)) : nodeRequire(id)), nodeRequire);
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, file, directory);
  return module.exports;
}

const WRAP_HEAD = Buffer.from('(function (exports, require, module, __filename, __dirname) {');
const WRAP_TAIL = Buffer.from('\n})');

/** A file's bytes with `head` before and `tail` after, in one buffer. */
function readBetween(file: string, head: Buffer, tail: Buffer): Buffer {
  const handle = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(handle).size;
    const whole = Buffer.allocUnsafe(head.length + size + tail.length);
    head.copy(whole, 0);
    let filled = 0;
    while (filled < size) {
      const read = fs.readSync(handle, whole, head.length + filled, size - filled, null);
      if (read === 0) break;
      filled += read;
    }
    tail.copy(whole, head.length + filled);
    return whole.subarray(0, head.length + filled + tail.length);
  } finally {
    fs.closeSync(handle);
  }
}

function cachedData(cache: string, source: Buffer): Buffer | undefined {
  if (!crc32) return undefined;
  let data: Buffer;
  try {
    data = fs.readFileSync(cache);
  } catch {
    return undefined;
  }
  return data.length > HEADER && data.readUInt32LE(0) === crc32(source) ? data.subarray(HEADER) : undefined;
}

/**
 * Writes each loaded bundle's code cache, with what this run compiled. The build calls it (through
 * `PIPELINE_TOOL_WRITE_CODE_CACHE`) after running the commands on sample input.
 */
function writeCodeCaches(): void {
  if (!crc32) return;
  for (const { script, source, cache } of bundles.values()) {
    const header = Buffer.alloc(HEADER);
    header.writeUInt32LE(crc32(source));
    fs.writeFileSync(`${cache}.tmp`, Buffer.concat([header, script.createCachedData()]));
    fs.renameSync(`${cache}.tmp`, cache);
  }
}

/** Whether V8 took each loaded bundle's cache: for tests and the build's check. */
function cacheUse(): Array<{ file: string; rejected: boolean | undefined }> {
  return [...bundles].map(([file, { script }]) => ({ file, rejected: script.cachedDataRejected }));
}

export = { loadBundle, writeCodeCaches, cacheUse };
