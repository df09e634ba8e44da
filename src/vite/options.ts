/**
 * Options of `pipeline()`, the Vite plugin of `pipeline-tool/vite`. All are optional; paths are
 * relative to Vite's `root`.
 *
 * ```ts
 * // vite.config.ts
 * import react from '@vitejs/plugin-react';
 * import { defineConfig } from 'vite';
 * import pipeline from 'pipeline-tool/vite';
 *
 * export default defineConfig({ plugins: [react(), pipeline({ fixtures: 'fixtures.json' })] });
 * ```
 */
export interface PipelinePluginOptions {
  /**
   * The tool's manifest.json: it names the tool and gives its type to the emulated host while
   * `vite` serves. Default: `manifest.json` in Vite's `publicDir` (`public/manifest.json`), which
   * Vite copies into the build.
   */
  manifest?: string;
  /**
   * Port of the emulated host's page, the address to open. Default 4800, or the next free port
   * after it; a port given here must be free.
   */
  port?: number;
  /** A fixture file for the emulated host, as `pipeline-tool dev --fixtures` takes it; reloaded when it changes. */
  fixtures?: string;
  /** The SDK version the emulated host acts as, 2.1.0 to 2.5.0. Default: the current one, 2.5.0. */
  sdk?: string;
  /**
   * Assets of a type the marketplace refuses (`.webp`, `.gif`, `.ttf`, `.woff`…) up to this many
   * bytes, that many included, are inlined into the code that uses them as `data:` addresses; a
   * larger one fails the build, naming the file that imports it and the accepted type to convert
   * it to. Default 4096, the figure of Vite's own inlining limit (which inlines only what is
   * smaller). Assets of accepted types follow Vite's `build.assetsInlineLimit`.
   */
  inlineLimit?: number;
  /** Check the built folder with `pipeline-tool validate`'s rules after each build. Default true. */
  validate?: boolean;
  /**
   * List every warning in library code (a package under node_modules, a vendored file) after the
   * build, as `validate --verbose` does. Default false: one line per package sums them up.
   */
  verbose?: boolean;
  /**
   * While `vite` serves: check each module as it is served, and again at each save, with
   * `pipeline-tool validate`'s code rules (browser storage, dialogs, unsafe HTML, bridge calls),
   * placed at the author's line; shown in the host page's findings panel, the terminal and, for
   * errors, Vite's error overlay. Default true.
   */
  checkServed?: boolean;
}
