import { buildSync } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { goodManifest, writeFolder } from './bundles.js';

/*
 * A tool as a bundler makes it: sources under src/ of a project folder, built by esbuild (a real
 * bundler, minifying as a production build does) into dist/, with the manifest and the page beside
 * the bundle. The source map is written the way the test asks: linked by a comment, inline, or
 * "hidden" (beside the bundle, no comment), as Vite's build.sourcemap: 'hidden' writes it.
 */

export type MapStyle = 'linked' | 'inline' | 'hidden' | 'none';

export interface BuiltApp {
  /** The project folder: src/ and dist/ are in it. */
  project: string;
  /** The built tool folder. */
  dist: string;
  /** The bundle's text (dist/assets/index.js). */
  bundle: string;
}

/** A component file: JSX compiled with a small factory of its own, as a framework's would be. */
export const APP_TSX = [
  "import { greet } from './greet';",
  '',
  'function h(tag: string, _props: unknown, ...children: unknown[]): HTMLElement {',
  '  const element = document.createElement(tag);',
  '  element.append(...children.map(String));',
  '  return element;',
  '}',
  '',
  'export function App(): HTMLElement {',
  "  const saved = localStorage.getItem('name') ?? 'world';",
  '  return <p>{greet(saved)}</p>;',
  '}',
  '',
].join('\n');

export const GREET_TS = "export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n";

export const MAIN_TSX = "import { App } from './App';\n\ndocument.body.append(App());\n";

/** `charset: 'utf8'` keeps characters outside ASCII as they are; esbuild's default escapes them (`\\ud83d\\ude00`). */
export function buildApp(sources: Record<string, string> = {}, options: { map?: MapStyle; extra?: Record<string, string | Buffer>; charset?: 'utf8' } = {}): BuiltApp {
  const map = options.map ?? 'linked';
  const project = writeFolder({
    'src/main.tsx': MAIN_TSX,
    'src/App.tsx': APP_TSX,
    'src/greet.ts': GREET_TS,
    ...sources,
    'dist/manifest.json': JSON.stringify(goodManifest, null, 2),
    'dist/index.html': '<!doctype html><html><head><meta charset="utf-8"><title>App</title><script type="module" src="assets/index.js"></script></head><body></body></html>\n',
    ...options.extra,
  });
  const outfile = path.join(project, 'dist', 'assets', 'index.js');
  buildSync({
    entryPoints: [path.join(project, 'src', 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    jsx: 'transform',
    jsxFactory: 'h',
    outfile,
    sourcemap: map === 'none' ? false : map === 'hidden' ? 'external' : map,
    ...(options.charset === undefined ? {} : { charset: options.charset }),
    logLevel: 'silent',
  });
  return { project, dist: path.join(project, 'dist'), bundle: readFileSync(outfile, 'utf8') };
}

/** 1-based line and column, in characters, of the first `needle` in `text`. */
export function positionOf(text: string, needle: string, from = 0): { line: number; column: number } {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line, column: [...text.slice(lineStart, at)].length + 1 };
}

/** Replaces the bundle's text (to change its map comment) and returns the new text. */
export function rewriteBundle(app: BuiltApp, change: (text: string) => string): string {
  const file = path.join(app.dist, 'assets', 'index.js');
  const text = change(readFileSync(file, 'utf8'));
  writeFileSync(file, text);
  return text;
}
