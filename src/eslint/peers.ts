import { createRequire } from 'node:module';
import path from 'node:path';

/*
 * The libraries that turn an author's TypeScript, JSX and Vue files into the JavaScript the code
 * rules read are optional peers, as vite and jsdom are: a project has them when it has such files
 * (typescript-eslint brings typescript, a Vue project has vue, which brings @vue/compiler-sfc). Each
 * is loaded on the first file that needs it, from the project (the working folder) first, then
 * from beside pipeline-tool, so that the project's own version is the one used.
 */

/** Why the plugin cannot read a file, in one line that says how to fix it. */
export class UnreadableFileError extends Error {}

const loaded = new Map<string, unknown>();

/** The package `name` (`reason` says what needs it, for the message), loaded once per process. */
export function peer<T>(name: string, reason: string): T {
  const found = optionalPeer<T>(name, reason);
  // A failure is not kept: the author may install the package while the editor's ESLint keeps running.
  if (found === undefined) throw new UnreadableFileError(`pipeline-tool cannot read this file: ${reason} needs the package ${name}, which is not installed. Add it with \`npm install -D ${name}\`.`);
  return found;
}

/** The package `name` when it is installed, else undefined. */
export function optionalPeer<T>(name: string, reason: string): T | undefined {
  if (loaded.has(name)) return loaded.get(name) as T;
  for (const from of [path.join(process.cwd(), 'noop.js'), import.meta.url]) {
    try {
      const found = createRequire(from)(name) as T;
      loaded.set(name, found);
      return found;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_REQUIRE_ESM') throw new UnreadableFileError(`pipeline-tool cannot read this file: ${reason} needs ${name}, an ES module, which this version of Node cannot load here; use Node 20.19 or later.`);
      if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
    }
  }
  return undefined;
}
