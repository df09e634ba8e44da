import path from 'node:path';
import type { Plugin, UserConfig } from 'vite';
import { ALLOWED_EXTENSIONS, extensionOf } from '../core/paths.js';
import { fileTypeHint } from '../core/rules/file-type.js';

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

export function assetsPlugin(inlineLimit: number): Plugin {
  // Absolute path of a refused asset → the files that use it.
  const users = new Map<string, Set<string>>();
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
    },
    async resolveId(source, importer, options) {
      if (importer === undefined || !isRefusedAsset(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved !== null) note(resolved.id.split('?', 1)[0]!, importer);
      return null;
    },
    transform(code, id) {
      // Stylesheets name their assets in url(…), which Vite resolves without asking plugins.
      if (!/\.(?:css|scss|sass|less|styl|stylus|pcss|postcss)(?:\?|$)/.test(id)) return null;
      const file = id.split('?', 1)[0]!;
      for (const match of code.matchAll(/url\(\s*(['"]?)([^'")\s]+)\1\s*\)/g)) {
        const reference = match[2]!;
        if (isRefusedAsset(reference) && !/^(?:data:|https?:|\/\/)/i.test(reference)) note(path.resolve(path.dirname(file), reference.split(/[?#]/, 1)[0]!), file);
      }
      return null;
    },
    generateBundle(_options, bundle) {
      const refused = Object.values(bundle).filter((output) => output.type === 'asset' && isRefused(output.fileName));
      if (refused.length === 0) return;
      const shown = (file: string) => path.relative(root, file).split(path.sep).join('/') || file;
      const lines = refused.map((asset) => {
        const source = asset.type === 'asset' ? asset : undefined;
        // Relative to Vite's root, or absolute.
        const original = source?.originalFileNames[0] === undefined ? undefined : path.resolve(root, source.originalFileNames[0]);
        const extension = extensionOf(original ?? asset.fileName);
        const usedBy = original === undefined ? [] : [...(users.get(original) ?? [])].map(shown).sort();
        const size = typeof source?.source === 'string' ? Buffer.byteLength(source.source) : (source?.source.length ?? 0);
        const where = usedBy.length === 0 ? '' : ` (imported by ${usedBy.join(', ')})`;
        return `  ${original === undefined ? asset.fileName : shown(original)}${where}: ${extension} is not accepted by the marketplace, and at ${size} bytes it is too large to inline (over ${inlineLimit}); ${fileTypeHint(extension)}.`;
      });
      this.error(
        `the marketplace would refuse ${refused.length === 1 ? 'an asset' : `${refused.length} assets`} of this build:\n${lines.join('\n')}\n` +
          `Accepted types: ${ALLOWED_EXTENSIONS.join(' ')}. Smaller files of other types are inlined (the inlineLimit option of pipeline-tool/vite).`,
      );
    },
  };
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
