import path from 'node:path';
import type { Plugin, UserConfig } from 'vite';
import { ALLOWED_EXTENSIONS, extensionOf } from '../core/paths.js';
import { fileTypeHint } from '../core/rules/file-type.js';
import { failBuild, type Failure } from './failure.js';

/*
 * Assets of a type the marketplace refuses never reach the bundle as files. A small one is inlined
 * into the code or stylesheet that uses it, as a `data:` address (a font or an image works the same
 * from there); a larger one would bloat that file by a third, so the build stops, naming each such
 * asset, the file that uses it, and the accepted type to convert it to. Accepted types whose name
 * only differs in spelling (`.jpeg`, `.PNG`) are written as `.jpg` and `.png`, which is sound.
 */

/** Vite's own default for build.assetsInlineLimit. */
export const DEFAULT_INLINE_LIMIT = 4096;

/** Spellings of accepted types that are the same files under another name. */
const RENAMED: Readonly<Record<string, string>> = { '.jpeg': '.jpg' };

/** Source that the build compiles into the bundle's code, never copies as a file. */
const COMPILED = new Set(['.ts', '.tsx', '.mts', '.cts', '.jsx', '.mjs', '.cjs', '.vue', '.svelte', '.scss', '.sass', '.less', '.styl', '.stylus', '.pcss', '.postcss']);

const accepted = (extension: string) => ALLOWED_EXTENSIONS.includes(RENAMED[extension] ?? extension);
/** A refused type, by the file's name; query strings (`?url`) are not part of it. */
const isRefused = (file: string) => {
  const extension = extensionOf(file.split(/[?#]/, 1)[0] ?? '');
  return extension !== '' && extension !== '.map' && !accepted(extension);
};
/** An asset whose type the marketplace refuses: refused, and not source the build compiles. */
const isRefusedAsset = (file: string) => isRefused(file) && !COMPILED.has(extensionOf(file.split(/[?#]/, 1)[0] ?? ''));

const URL_IN_CSS = /url\(\s*(['"]?)([^'")\s]+)\1\s*\)/g;
const FONT_FACE = /@font-face\s*\{[^}]*\}/gi;
const SRC_DECLARATION = /(^|[{;\s])src\s*:\s*([^;}]*)(;?)/gi;

/**
 * In each `@font-face` that names a font of an accepted type (`.woff2`), the sources of refused
 * types are dropped: they are fallbacks for browsers that cannot read `.woff2`, which no browser
 * the platform supports is. A `src` left with nothing is dropped whole.
 */
export function dropRefusedFallbacks(css: string): { css: string; dropped: string[] } {
  const dropped: string[] = [];
  const out = css.replace(FONT_FACE, (rule) => {
    const urls = [...rule.matchAll(URL_IN_CSS)].map((match) => match[2]!);
    if (!urls.some((url) => !isRefused(url) && extensionOf(url.split(/[?#]/, 1)[0] ?? '') === '.woff2')) return rule;
    return rule.replace(SRC_DECLARATION, (whole, lead: string, list: string, end: string) => {
      const entries = splitList(list);
      const kept = entries.filter((entry) => {
        const url = [...entry.matchAll(URL_IN_CSS)][0]?.[2];
        if (url === undefined || !isRefusedAsset(url)) return true;
        dropped.push(url);
        return false;
      });
      if (kept.length === entries.length) return whole;
      return kept.length === 0 ? lead : `${lead}src: ${kept.join(', ')}${end}`;
    });
  });
  return { css: out, dropped };
}

/** A CSS list split at its top-level commas. */
function splitList(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts.filter((part) => part !== '');
}

export function assetsPlugin(inlineLimit: number, failure: Failure): Plugin {
  // Absolute path of a refused asset → the files that use it.
  const users = new Map<string, Set<string>>();
  // A stylesheet or module → the file that imported it, to name the author's own import.
  const importers = new Map<string, string>();
  // Fallback fonts dropped, by the stylesheet that named them.
  const dropped = new Map<string, number>();
  let logger: { info(message: string): void } | undefined;
  const note = (asset: string, user: string) => {
    const set = users.get(asset) ?? new Set<string>();
    set.add(user);
    users.set(asset, set);
  };
  let root = process.cwd();
  return {
    name: 'pipeline-tool:assets',
    apply: 'build',
    // Before Vite's own plugins, which turn stylesheets into code and assets into addresses.
    enforce: 'pre',
    config: (user) => assetDefaults(user, inlineLimit),
    configResolved(config) {
      root = config.root;
      logger = config.logger;
    },
    buildStart() {
      dropped.clear();
    },
    async resolveId(source, importer, options) {
      if (importer === undefined) return null;
      const stylesheet = STYLESHEET.test(source);
      if (!stylesheet && !isRefusedAsset(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved === null) return null;
      const id = resolved.id.split('?', 1)[0]!;
      if (stylesheet) {
        if (!importers.has(id)) importers.set(id, importer.split('?', 1)[0]!);
      } else note(id, importer);
      return null;
    },
    transform(code, id) {
      // Stylesheets name their assets in url(…), which Vite resolves without asking plugins.
      if (!STYLESHEET.test(id)) return null;
      const file = id.split('?', 1)[0]!;
      const fonts = dropRefusedFallbacks(code);
      if (fonts.dropped.length > 0) dropped.set(file, (dropped.get(file) ?? 0) + fonts.dropped.length);
      for (const match of fonts.css.matchAll(URL_IN_CSS)) {
        const reference = match[2]!;
        if (isRefusedAsset(reference) && !/^(?:data:|https?:|\/\/)/i.test(reference)) note(path.resolve(path.dirname(file), reference.split(/[?#]/, 1)[0]!), file);
      }
      return fonts.dropped.length > 0 ? { code: fonts.css, map: null } : null;
    },
    // After the other plugins', so that every file of the bundle is there to judge (and to hold back).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const shown = (file: string) => path.relative(root, file).split(path.sep).join('/') || file;
        if (dropped.size > 0) {
          const total = [...dropped.values()].reduce((a, b) => a + b, 0);
          const sheets = [...dropped.keys()].map((file) => {
            const own = authorImport(file, importers, root);
            return own === undefined || own === file ? shown(file) : `${shown(file)}, imported by ${shown(own)}`;
          });
          logger?.info(
            `[pipeline-tool] left out ${total} fallback font ${total === 1 ? 'file' : 'files'} (.woff, .ttf, .eot), which the marketplace refuses, from @font-face rules that also name .woff2, which every browser the platform supports reads: ${sheets.sort().join('; ')}.`,
          );
        }
        const refused = Object.values(bundle).filter((output) => output.type === 'asset' && isRefused(output.fileName));
        if (refused.length === 0) return;
        const lines = refused.map((asset) => {
          const source = asset.type === 'asset' ? asset : undefined;
          // Relative to Vite's root, or absolute.
          const original = source?.originalFileNames[0] === undefined ? undefined : path.resolve(root, source.originalFileNames[0]);
          const extension = extensionOf(original ?? asset.fileName);
          const usedBy = original === undefined ? [] : [...(users.get(original) ?? [])].sort();
          const size = typeof source?.source === 'string' ? Buffer.byteLength(source.source) : (source?.source.length ?? 0);
          // A library's file: name the author's own import that brought it in, which the author can change.
          const own = usedBy.map((user) => authorImport(user, importers, root)).filter((file): file is string => file !== undefined && !usedBy.includes(file));
          const where = usedBy.length === 0 ? '' : ` (imported by ${usedBy.map(shown).join(', ')}${own.length === 0 ? '' : `, which ${[...new Set(own.map(shown))].join(', ')} imports`})`;
          const fromPackage = original !== undefined && original.split(path.sep).includes('node_modules');
          const fix = fromPackage
            ? `it comes from a package: import a stylesheet of the package that names only .woff2 fonts, or let the build inline it with pipeline({ inlineLimit: ${size + 1} })`
            : fileTypeHint(extension);
          return `  ${original === undefined ? asset.fileName : shown(original)}${where}: ${extension} is not accepted by the marketplace, and at ${size} bytes it is too large to inline (over ${inlineLimit}); ${fix}.`;
        });
        failBuild(
          failure,
          this,
          `[pipeline-tool] the marketplace would refuse ${refused.length === 1 ? 'an asset' : `${refused.length} assets`} of this build:\n${lines.join('\n')}\n` +
            `Accepted types: ${ALLOWED_EXTENSIONS.join(' ')}. Smaller files of other types are inlined (the inlineLimit option of pipeline-tool/vite).`,
        );
        // Nothing of a refused build is written.
        for (const name of Object.keys(bundle)) delete bundle[name];
      },
    },
  };
}

const STYLESHEET = /\.(?:css|scss|sass|less|styl|stylus|pcss|postcss)(?:\?|$)/;

/** The first file up the chain of imports from `file` that is the author's own (not under node_modules). */
function authorImport(file: string, importers: ReadonlyMap<string, string>, root: string): string | undefined {
  let current: string | undefined = file;
  for (let hops = 0; current !== undefined && hops < 50; hops++) {
    if (!path.relative(root, current).split(path.sep).includes('node_modules') && !current.split(path.sep).includes('node_modules')) return current;
    current = importers.get(current);
  }
  return undefined;
}

/**
 * Refused types are inlined up to `inlineLimit` bytes, that many included, whatever Vite's own
 * limit says (Vite's inlines only what is smaller than its limit); accepted types follow the
 * author's setting, with Vite's meaning. Asset names get their accepted spelling.
 */
function assetDefaults(user: UserConfig, inlineLimit: number): UserConfig {
  const given = user.build?.assetsInlineLimit;
  const output = user.build?.rolldownOptions?.output ?? user.build?.rollupOptions?.output;
  const assetsDir = user.build?.assetsDir ?? 'assets';
  const namesGiven = output !== undefined && !Array.isArray(output) && output.assetFileNames !== undefined;
  return {
    build: {
      assetsInlineLimit: (file: string, content: Buffer) => {
        if (isRefusedAsset(file)) return content.length <= inlineLimit;
        if (typeof given === 'function') return given(file, content);
        return content.length < (given ?? DEFAULT_INLINE_LIMIT);
      },
      ...(namesGiven
        ? {}
        : {
            rolldownOptions: {
              output: {
                assetFileNames: (asset: { names: string[] }) => {
                  const extension = extensionOf(asset.names[0] ?? '');
                  const spelled = RENAMED[extension] ?? extension;
                  return path.posix.join(assetsDir, `[name]-[hash]${spelled === '' ? '[extname]' : spelled}`);
                },
              },
            },
          }),
    },
  };
}
