/*
 * Tool settings: JSON values stored per tenant and per tool (platform-spec §4.3). The store is
 * pluggable so that `pipeline-tool dev` can keep settings in a file across restarts; the model
 * itself only ever holds them in memory.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Whose settings: one tool within one tenant. */
export interface SettingsScope {
  tenantId: string;
  toolId: string;
}

/**
 * Where settings live. Both methods may be synchronous or return promises. The model hands the
 * store values it already checked and copied, and copies what the store returns.
 */
export interface SettingsStore {
  /** The stored value, or undefined when the key was never set. */
  read(scope: SettingsScope, key: string): JsonValue | undefined | Promise<JsonValue | undefined>;
  write(scope: SettingsScope, key: string, value: JsonValue): void | Promise<void>;
}

/** One stored setting, as the memory store lists them (for a dev server that saves them). */
export interface SettingsEntry extends SettingsScope {
  key: string;
  value: JsonValue;
}

export interface MemorySettingsStore extends SettingsStore {
  entries(): SettingsEntry[];
}

/** A map key for one setting. A JSON array of the parts cannot collide the way "tenant/tool/key" could. */
export function settingSlot(scope: SettingsScope, key: string): string {
  return JSON.stringify([scope.tenantId, scope.toolId, key]);
}

export function createMemorySettingsStore(initial: readonly SettingsEntry[] = []): MemorySettingsStore {
  const values = new Map<string, SettingsEntry>();
  const put = (entry: SettingsEntry) => values.set(settingSlot(entry, entry.key), { ...entry, value: copyJson(entry.value) });
  initial.forEach(put);
  return {
    read: (scope, key) => {
      const entry = values.get(settingSlot(scope, key));
      return entry === undefined ? undefined : copyJson(entry.value);
    },
    write: (scope, key, value) => {
      put({ tenantId: scope.tenantId, toolId: scope.toolId, key, value });
    },
    entries: () => [...values.values()].map((entry) => ({ ...entry, value: copyJson(entry.value) })),
  };
}

/** Deepest nesting a setting may have; deeper values are almost certainly a cycle or a mistake. */
export const MAX_SETTING_DEPTH = 64;

/**
 * Why a value cannot be stored as JSON, or null when it can. Catches what JSON.stringify would
 * silently change: undefined, functions, NaN, Infinity, class instances, holes in arrays.
 */
export function findNonJson(value: unknown, path = 'value', depth = 0): string | null {
  if (depth > MAX_SETTING_DEPTH) return `${path} is nested more than ${MAX_SETTING_DEPTH} levels deep (or refers to itself)`;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} is ${value}, which JSON cannot hold`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findNonJson(value[i], `${path}[${i}]`, depth + 1);
      if (problem !== null) return problem;
    }
    return null;
  }
  if (typeof value === 'object') {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return `${path} is not a plain object`;
    for (const [key, item] of Object.entries(value)) {
      const problem = findNonJson(item, `${path}.${key}`, depth + 1);
      if (problem !== null) return problem;
    }
    return null;
  }
  return `${path} is ${value === undefined ? 'undefined' : `a ${typeof value}`}, which JSON cannot hold`;
}

/** A deep copy through JSON text, which also keeps keys such as `__proto__` as plain data. */
export function copyJson<T extends JsonValue>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
