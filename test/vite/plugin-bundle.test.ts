import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * `pipeline-tool/vite` as the build leaves it (scripts/build.mjs, bundleVitePlugin): Vite's config
 * imports one bundled module, not our modules one by one, and what only serving needs is loaded
 * when Vite serves. Loaded in a new Node with a loader hook that writes down every module of ours
 * that Node loads.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = path.join(root, 'dist');

/** Our files (relative to dist/) that Node loads to run `script` after importing the plugin. */
function loadedBy(script: string): string[] {
  const hook = `export async function load(url, context, next) { if (url.startsWith(${JSON.stringify(pathToFileURL(dist).href + '/')})) process.stderr.write('loaded ' + url + '\\n'); return next(url, context); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const result = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', `const { default: pipeline } = await import(${JSON.stringify(pathToFileURL(path.join(dist, 'vite', 'index.js')).href)});\n${script}`],
    { encoding: 'utf8', cwd: root },
  );
  expect(result.status, result.stderr).toBe(0);
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => path.relative(dist, fileURLToPath(line.slice('loaded '.length))).split(path.sep).join('/'));
}

describe('pipeline-tool/vite as built', () => {
  it('is ASCII in every file, which Node decodes into one-byte strings', () => {
    const files = readdirSync(path.join(dist, 'vite')).filter((name) => name.endsWith('.js'));
    expect(files).toContain('index.js');
    expect(files.filter((name) => !isAscii(readFileSync(path.join(dist, 'vite', name)))), 'scripts/build.mjs refuses these; was dist/ built by it?').toEqual([]);
  });

  it('is loaded from dist/vite/ alone: none of the modules it is made from is loaded one by one', () => {
    const loaded = loadedBy('if (typeof pipeline !== "function" || pipeline().length === 0) process.exit(3);');
    expect(loaded[0]).toBe('vite/index.js');
    expect(loaded.filter((file) => !/^vite\/[\w-]+\.js$/.test(file))).toEqual([]);
    // What a build needs comes with index.js; the emulated host and the served checks do not.
    expect(loaded.filter((file) => /^vite\/(server|check-module|platform)-/.test(file))).toEqual([]);
  });

  it('holds the emulated host and the served checks in files of its own, beside index.js', () => {
    const files = readdirSync(path.join(dist, 'vite')).filter((name) => name.endsWith('.js'));
    expect(files).toContain('index.js');
    for (const part of ['server', 'check-module', 'platform']) expect(files.some((name) => name.startsWith(`${part}-`))).toBe(true);
    // tsc's one file per module is gone; only the type declarations stay.
    expect(files).not.toContain('build.js');
    expect(readdirSync(path.join(dist, 'vite'))).toContain('build.d.ts');
  });
});
