import { createRequire } from 'node:module';
import type ignore from 'ignore';

/*
 * The `ignore` package builds its pattern tables as it loads. Only a folder's .pipelineignore and
 * the project file's `overrides` need it, so it is loaded on first use: validating a zip with no
 * overrides never loads it.
 *
 * In the CLI's CommonJS bundles `require` is defined, and the bundler turns `require('ignore')`
 * into its own copy of the package, run on this first call and compiled from the CLI's code cache.
 * Run as an ES module (the library, the tests) there is no `require`, and Node loads the package.
 */
let loaded: typeof ignore | undefined;

/** The `ignore` package, loaded on first use. */
export function ignorePackage(): typeof ignore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: the bundler's require
  loaded ??= (typeof require === 'function' ? require('ignore') : createRequire(import.meta.url)('ignore')) as typeof ignore;
  return loaded;
}
