import type { BridgeToolType } from '../../bridge/types.js';
import { nearestName } from '../nearest.js';
import { BRIDGE_METHODS, isBridgeMethod } from '../../platform/sdk-versions.js';

/*
 * The bridge as the code checks see it. The list of methods is the platform model's
 * (src/platform/sdk-versions.ts), so validate, the emulator and the SDK shim agree on what exists.
 */

export const METHOD_NAMES: readonly string[] = Object.keys(BRIDGE_METHODS);

/** `window.pipeline.version` is the only member that is not a namespace. */
export const PROPERTIES: readonly string[] = ['version'];

export const NAMESPACES: readonly string[] = [...new Set(METHOD_NAMES.map((name) => name.slice(0, name.indexOf('.'))))];

export function isNamespace(name: string): boolean {
  return NAMESPACES.includes(name);
}

export function isMethod(qualified: string): boolean {
  return isBridgeMethod(qualified);
}

export function allowedToolTypes(qualified: string): readonly BridgeToolType[] {
  return isBridgeMethod(qualified) ? BRIDGE_METHODS[qualified].toolTypes : [];
}

export function replacementOf(qualified: string): string | undefined {
  return isBridgeMethod(qualified) ? BRIDGE_METHODS[qualified].replacedBy : undefined;
}

/** The real method closest to a misspelt `namespace.method` (or to a bare `method`). */
export function nearestMethod(qualified: string): string | undefined {
  const direct = nearestName(qualified, METHOD_NAMES);
  if (direct) return direct;
  // `quotes.addLine` is near `quotes.addLines`; `pipeline.addLines` (namespace forgotten) is found
  // by its method part alone.
  const method = qualified.slice(qualified.lastIndexOf('.') + 1);
  const byMethod = METHOD_NAMES.filter((name) => name.endsWith(`.${method}`));
  return byMethod.length === 1 ? byMethod[0] : undefined;
}

/** True when a name is a namespace, or close enough to one to be a misspelling of it. */
export function looksLikeNamespace(name: string): boolean {
  return isNamespace(name) || nearestName(name, NAMESPACES) !== undefined;
}

/**
 * True when a name called straight on `pipeline` is unmistakably a bridge method with its namespace
 * left out (`pipeline.addLines(…)`). Generic names such as get, set, list and create are not: a
 * local object that happens to be called `pipeline` may well have those.
 */
export function isDistinctiveMethodName(name: string): boolean {
  const owners = METHOD_NAMES.filter((m) => m.endsWith(`.${name}`));
  return owners.length === 1 && name.length > 6;
}

export function methodsOf(namespace: string): string[] {
  return METHOD_NAMES.filter((name) => name.startsWith(`${namespace}.`));
}
