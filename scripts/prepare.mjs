// npm runs `prepare` in a checkout (npm install, npm ci, npm pack, an install from git), and also
// in an installed copy that a project names by its folder (a `file:` dependency, which is what
// `init` writes when pipeline-tool was not installed from the registry). Only a checkout holds the
// sources to build; an installed copy was built before it was packed, and has nothing to do. So
// this file ships in the package, and build.mjs does not.
import { existsSync } from 'node:fs';

const build = new URL('./build.mjs', import.meta.url);
if (existsSync(build)) {
  process.argv.push('--if-changed');
  await import(build.href);
}
