// A built app with a large source map and no findings, for the figure that says a map costs
// nothing when no finding needs it: 400 modules of documented library-like code (the generator of
// bench/minified-js.mjs, which trips no check) bundled and minified by esbuild into one script of
// about 3 MB, with a map of about 9 MB beside it (sourcesContent included, as bundlers write it).
// Two tool folders hold the same script: mapped/ with its map, plain/ without. Made in
// bench/.work/large-map and reused while GENERATOR_VERSION is unchanged; it takes a few seconds.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { generateDocumentedJs } from './minified-js.mjs';
import { createRandom } from './random.mjs';

/** Bump whenever a change here changes the bytes written; a stale app is remade. */
const GENERATOR_VERSION = 1;
const MODULES = 400;
const MODULE_BYTES = 14_000;
const SEED = 0x1a49e3a9;

/**
 * Returns `{ dir, mapped, plain, scriptBytes, mapBytes }`: the project folder (sources in src/,
 * which the map names), and its two tool folders.
 */
export function prepareLargeMapApp({ workDir, log = () => {} }) {
  const dir = path.join(workDir, 'large-map');
  const stampPath = path.join(dir, '.bench-stamp');
  const stamp = `${GENERATOR_VERSION}:${SEED}`;
  const mapped = path.join(dir, 'mapped');
  const plain = path.join(dir, 'plain');
  const script = (folder) => path.join(folder, 'assets', 'index.js');
  if (!(existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp)) {
    log('making the app with a large source map…');
    rmSync(dir, { recursive: true, force: true });
    const random = createRandom(SEED);
    const imports = [];
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    for (let i = 0; i < MODULES; i++) {
      // Each module is used, so the bundler keeps all of it.
      writeFileSync(path.join(dir, 'src', `part${i}.js`), `${generateDocumentedJs(random.fork(`part${i}`), MODULE_BYTES, { banner: `part${i}` })}\nexport const ready${i} = true;\n`);
      imports.push(`import { ready${i} } from './part${i}.js';`);
    }
    writeFileSync(path.join(dir, 'src', 'main.js'), `${imports.join('\n')}\ndocument.title = String([${Array.from({ length: MODULES }, (_, i) => `ready${i}`).join(', ')}].length);\n`);
    for (const folder of [mapped, plain]) {
      mkdirSync(path.join(folder, 'assets'), { recursive: true });
      writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ name: 'Large Map', shortName: 'Large Map', type: 'standalone', version: '1.0.0', description: 'A large app.', entry: 'index.html' }));
      writeFileSync(path.join(folder, 'index.html'), '<!doctype html><html><head><title>Large Map</title><script type="module" src="assets/index.js"></script></head><body></body></html>\n');
    }
    // A hidden map (beside the script, no comment), as Vite's build.sourcemap: 'hidden' writes it,
    // so both folders hold the very same script.
    buildSync({ entryPoints: [path.join(dir, 'src', 'main.js')], bundle: true, minify: true, format: 'esm', sourcemap: 'external', outfile: script(mapped), logLevel: 'silent' });
    copyFileSync(script(mapped), script(plain));
    writeFileSync(stampPath, stamp);
  }
  return { dir, mapped, plain, scriptBytes: statSync(script(mapped)).size, mapBytes: statSync(`${script(mapped)}.map`).size };
}
