import type * as Sfc from '@vue/compiler-sfc';
import type * as Ts from 'typescript';
import { mappedPlaces, samePlaces, type PlaceInText } from '../core/source-map/text-map.js';
import { optionalPeer, peer, UnreadableFileError } from './peers.js';

/*
 * The code rules read JavaScript with pipeline-tool's own tokenizer, the one validate runs over a
 * bundle. An author's file becomes JavaScript here, in a way that keeps every position leading back
 * to what the author wrote:
 * - .js, .mjs, .cjs: read as they are.
 * - .ts, .mts, .cts: types replaced by blanks (ts-blank-space, over TypeScript's own parser), so
 *   every character stays on its line and column and nothing needs mapping.
 * - .tsx, .jsx: JSX has no blank-preserving form; it is compiled into calls, as Vite's React build
 *   does, with a source map that places each finding back: by Oxc's transformer where the project
 *   has it (rolldown, which Vite 8 builds with, exports it; well under a millisecond a file), else
 *   by TypeScript's transpileModule (present wherever typescript-eslint is; a Program per file, tens
 *   of milliseconds).
 * - .vue: Vue's own compiler (@vue/compiler-sfc, as @vitejs/plugin-vue runs it) compiles the
 *   `<script>`, `<script setup>` and the template's expressions into the module the build ships,
 *   with a source map to the component; TypeScript in it is blanked as above.
 */

/** One piece of JavaScript the rules read, and how its places lead back to the author's file. */
export interface AuthorScript {
  text: string;
  place: PlaceInText;
}

const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);
const JSX_EXTENSIONS = new Set(['.tsx', '.jsx']);

/** The scripts of one file, by its name's extension. Throws UnreadableFileError when it cannot be made JavaScript. */
export function scriptsOf(text: string, filename: string): AuthorScript[] {
  const extension = /\.[^./\\]+$/.exec(filename)?.[0].toLowerCase() ?? '';
  if (TS_EXTENSIONS.has(extension)) return [blankScript(stripTypes(text, `a ${extension} file`))];
  if (JSX_EXTENSIONS.has(extension)) return [compileJsx(text, filename, extension)];
  if (extension === '.vue') return vueScripts(text, filename);
  return [blankScript(text)];
}

function blankScript(text: string): AuthorScript {
  return { text, place: samePlaces(text) };
}

type BlankSpace = (text: string, onError?: (node: unknown) => void) => string;

/** TypeScript with its types blanked out, character for character. */
function stripTypes(text: string, reason: string): string {
  const blank = peer<{ default: BlankSpace }>('ts-blank-space', reason).default;
  // Syntax with no blank form (an enum, a namespace) is left as written: the tokenizer reads it as
  // the JavaScript-like text it is, and every other place stays where the author wrote it.
  return blank(text, () => undefined);
}

/** What rolldown/utils exports of Oxc's transformer, as far as it is used here. */
interface Oxc {
  transformSync(filename: string, text: string, options: object): { code: string; map?: object | null; errors: unknown[] };
}

function compileJsx(text: string, filename: string, extension: string): AuthorScript {
  const oxc = optionalPeer<Oxc>('rolldown/utils', `a ${extension} file`);
  if (oxc) {
    const output = oxc.transformSync(filename, text, { sourcemap: true, jsx: { runtime: 'automatic' } });
    // What Oxc cannot compile, TypeScript may still read; the parser has accepted the file.
    if (output.errors.length === 0 && output.map) return { text: output.code, place: mappedPlaces(output.code, output.map as never, text) };
  }
  return transpileJsx(text, filename, extension);
}

export function transpileJsx(text: string, filename: string, extension: string): AuthorScript {
  const ts = peer<typeof Ts>('typescript', `a ${extension} file (its JSX is compiled to read it)`);
  const output = ts.transpileModule(text, {
    fileName: filename,
    reportDiagnostics: false,
    compilerOptions: { jsx: ts.JsxEmit.ReactJSX, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, sourceMap: true, inlineSources: false },
  });
  if (output.sourceMapText === undefined) throw new UnreadableFileError(`pipeline-tool cannot read this file: TypeScript gave no source map for its JSX.`);
  return { text: output.outputText, place: mappedPlaces(output.outputText, JSON.parse(output.sourceMapText) as never, text) };
}

/** The component's scripts and template, compiled as @vitejs/plugin-vue compiles them for a build. */
function vueScripts(text: string, filename: string): AuthorScript[] {
  const sfc = peer<typeof Sfc>('@vue/compiler-sfc', 'a .vue file');
  const { descriptor, errors } = sfc.parse(text, { filename, sourceMap: true });
  const first = errors[0];
  if (first) throw new UnreadableFileError(`pipeline-tool cannot read this component: ${first.message}`);
  const { script, scriptSetup, template } = descriptor;
  const lang = scriptSetup?.lang ?? script?.lang;
  if (lang !== undefined && lang !== 'ts' && lang !== 'js' && lang !== 'tsx' && lang !== 'jsx') {
    throw new UnreadableFileError(`pipeline-tool cannot read this component: its script is written in "${lang}"; the code rules read JavaScript and TypeScript.`);
  }
  const typed = lang === 'ts' || lang === 'tsx';
  const scripts: AuthorScript[] = [];
  const id = 'pipeline-tool';
  // With <script setup>, a build compiles the template into setup's body (inlineTemplate). A
  // template the compiler refuses fails the build too; the script and the template are then read
  // apart, so that the rest of the component is still checked.
  let inline = scriptSetup !== null && template !== null && template.lang === undefined;
  let bindings: Sfc.BindingMetadata | undefined;
  if (script !== null || scriptSetup !== null) {
    let compiled: Sfc.SFCScriptBlock | undefined;
    if (inline) {
      try {
        compiled = sfc.compileScript(descriptor, { id, sourceMap: true, inlineTemplate: true });
      } catch {
        inline = false;
      }
    }
    try {
      compiled ??= sfc.compileScript(descriptor, { id, sourceMap: true });
    } catch (error) {
      throw new UnreadableFileError(`pipeline-tool cannot read this component: ${(error as Error).message.split('\n')[0]}`);
    }
    bindings = compiled.bindings;
    scripts.push(vueScript(compiled.content, compiled.map, text, typed, lang === 'tsx' || lang === 'jsx'));
  }
  if (template !== null && !inline && template.lang === undefined) {
    const compiled = sfc.compileTemplate({
      source: template.content,
      filename,
      id,
      ...(template.map ? { inMap: template.map } : {}),
      compilerOptions: { isTS: typed, ...(bindings ? { bindingMetadata: bindings } : {}) },
    });
    // The compiler's own errors (a v-html with children) are eslint-plugin-vue's to report.
    if (compiled.map) scripts.push(vueScript(compiled.code, compiled.map, text, typed, false));
  }
  return scripts;
}

function vueScript(code: string, map: object | undefined, source: string, typed: boolean, jsx: boolean): AuthorScript {
  if (!map) throw new UnreadableFileError('pipeline-tool cannot read this component: the Vue compiler gave no source map for it.');
  if (jsx) throw new UnreadableFileError('pipeline-tool cannot read this component: JSX inside a .vue file is not read yet; move it to a .tsx or .jsx file.');
  // Blanking keeps every column, so the compiler's map still applies.
  const text = typed ? stripTypes(code, 'a .vue file with lang="ts"') : code;
  return { text, place: mappedPlaces(text, map as never, source) };
}
