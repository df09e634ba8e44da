import type { Plugin } from 'vite';
import { assetsPlugin, DEFAULT_INLINE_LIMIT } from './assets.js';
import { buildPlugin } from './build.js';
import { createFailure, failurePlugins } from './failure.js';
import type { PipelinePluginOptions } from './options.js';
import { servePlugin } from './serve.js';

export type { PipelinePluginOptions } from './options.js';

/**
 * `pipeline-tool/vite`: a tool built with Vite, run inside pipeline-tool's emulated host while
 * `vite` serves it, and built into a folder the marketplace accepts and `pipeline-tool validate`
 * has checked. Options: {@link PipelinePluginOptions}.
 */
export function pipeline(options: PipelinePluginOptions = {}): Plugin[] {
  const failure = createFailure();
  return [
    servePlugin(options),
    assetsPlugin(options.inlineLimit ?? DEFAULT_INLINE_LIMIT, failure),
    buildPlugin(options.validate ?? true, options.verbose ?? false, failure),
    ...failurePlugins(failure),
  ];
}

export default pipeline;
