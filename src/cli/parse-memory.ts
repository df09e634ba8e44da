import { createRequire } from 'node:module';
import type v8 from 'node:v8';
import { onHeavyParsing } from '../core/code/script-syntax.js';

/*
 * V8 keeps every script it compiles in a cache keyed by its source, for the life of the process.
 * js-syntax has V8 parse each script it checks, once, so for a bundle of 40 MB of JavaScript that
 * cache would only hold about 50 MB of scripts nobody compiles again. The commands that check
 * scripts (validate, pack, dev) import this module, which turns the cache off once a run has
 * parsed more than a few megabytes.
 *
 * Not earlier: loading node:v8 costs about 1.5 ms, some 5% of a short validate; and V8 takes the
 * code cache of the CLI's own bundles only under the flags it was made with (src/cli-loader.cts),
 * which is without this one, so it is set after they are loaded.
 */
onHeavyParsing(() => {
  const { setFlagsFromString } = createRequire(import.meta.url)('node:v8') as typeof v8;
  setFlagsFromString('--no-compilation-cache');
});
