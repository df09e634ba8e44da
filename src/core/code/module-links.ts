/*
 * The bridge passed between a bundle's ES modules: `export const pipeline = window.pipeline` in one
 * file, `import { pipeline } from './bridge.js'` in another, re-exports in between. Files are read
 * in bundle order, so an import is often read before the module it names; what each module exports
 * is recorded as it is read, and a finding made through an imported name waits, with a condition,
 * until every file has been read.
 */

/** What a module's export stands for: part of the bridge (`['pipeline']`, `['pipeline', 'quotes']`), or another module's export. */
export type ExportTarget = { readonly texts: readonly string[] } | { readonly module: string; readonly name: string };

/** The exports of one module that may be the bridge, and the modules it re-exports whole. */
export interface ModuleExports {
  readonly names: Map<string, ExportTarget>;
  readonly stars: string[];
}

/** Re-exports followed before giving up (a cycle ends sooner). */
const MAX_HOPS = 32;

/**
 * What `name`, exported by `module`, stands for: the bridge's parts, `null` when it is not the bridge,
 * or `undefined` when that is not known yet (a module on the way has not been read).
 */
export function resolveExport(modules: ReadonlyMap<string, ModuleExports>, module: string, name: string, hops = 0, seen = new Set<string>()): readonly string[] | null | undefined {
  const key = `${module}\0${name}`;
  if (hops > MAX_HOPS || seen.has(key)) return null;
  seen.add(key);
  const exports = modules.get(module);
  if (!exports) return undefined;
  const target = exports.names.get(name);
  if (target) return 'texts' in target ? target.texts : resolveExport(modules, target.module, target.name, hops + 1, seen);
  if (name === 'default') return null;
  let unknown = false;
  for (const star of exports.stars) {
    const found = resolveExport(modules, star, name, hops + 1, seen);
    if (found) return found;
    if (found === undefined) unknown = true;
  }
  return unknown ? undefined : null;
}

/** A finding made through an imported name holds only if the import turns out to be this part of the bridge. */
export interface ModuleCondition {
  readonly module: string;
  readonly name: string;
  readonly texts: readonly string[];
  holds(): boolean;
}

export function moduleCondition(modules: ReadonlyMap<string, ModuleExports>, module: string, name: string, texts: readonly string[]): ModuleCondition {
  return {
    module,
    name,
    texts,
    holds() {
      const found = resolveExport(modules, module, name);
      return found !== null && found !== undefined && found.length === texts.length && found.every((text, i) => text === texts[i]);
    },
  };
}
