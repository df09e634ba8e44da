import { createRequire } from 'node:module';
import type v8 from 'node:v8';
import vm from 'node:vm';
import { onHeavyParsing } from '../core/code/script-syntax.js';

/*
 * V8 keeps every script it compiles in a cache keyed by its source, for the life of the process.
 * js-syntax has V8 parse each script it checks, once, so for a bundle of 40 MB of JavaScript that
 * cache would only hold about 50 MB of scripts nobody compiles again. The commands that check
 * scripts (validate, pack, dev) import this module, which turns the cache off once a run has
 * parsed more than a few megabytes.
 *
 * What a parse leaves (the script, its bytecode, the source text) is garbage as soon as the script
 * is judged, but V8 collects it only when its heap next grows large, which in a short run may be
 * never: about 40 MB of it were alive at the peak of a run over 41 MB of script. So the same switch
 * exposes V8's collector, and the parses call it every few megabytes (script-syntax.ts, and the
 * syntax worker likewise), which costs a few milliseconds each time.
 *
 * Not earlier: loading node:v8 costs about 1.5 ms, some 5% of a short validate; and V8 takes the
 * code cache of the CLI's own bundles only under the flags it was made with (src/cli-loader.cts),
 * which is without these, so they are set after the bundles are loaded.
 */
let gc: (() => void) | undefined;
let v8Module: typeof v8 | undefined;

/** node:v8, loaded on first use only. */
function loadV8(): typeof v8 {
  return (v8Module ??= createRequire(import.meta.url)('node:v8') as typeof v8);
}

/** V8's collector for this thread (a full collection), exposed on first call. */
export function collector(): () => void {
  if (!gc) {
    loadV8().setFlagsFromString('--expose-gc');
    // A context made now has V8's `gc`; calling it collects this thread's whole heap.
    gc = vm.runInNewContext('gc') as () => void;
  }
  return gc;
}

let minor: ((options: { type: 'minor' }) => void) | undefined;

/**
 * A collection of the young generation only, for pack and validate (see `collectGarbage` in
 * pack-folder.ts and validate.ts): the files they read, the buffers zlib fills and the entries they
 * inflate are garbage once written or checked, but held outside V8's heap, which V8 collects only
 * after tens of megabytes of them.
 * Their Buffer objects die young, so a scavenge frees them: on `pack maxdir` it cost about a sixth
 * of a full collection (7 against 40 ms a call at load 17), for a peak 2 to 4 MiB higher.
 */
export function collectYoung(): void {
  // V8's collector is exposed at the first call: a run that never collects never loads node:v8.
  minor ??= collector() as (options: { type: 'minor' }) => void;
  minor({ type: 'minor' });
}

onHeavyParsing(() => {
  loadV8().setFlagsFromString('--no-compilation-cache');
  return collector();
});
