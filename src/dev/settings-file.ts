import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { JsonValue, SettingsEntry, SettingsScope, SettingsStore } from '../platform/index.js';

/*
 * Tool settings kept in a JSON file in the project folder, so that they outlive a restart of the
 * dev server as they outlive a sign-out on the platform. Every write replaces the file through a
 * temporary file and a rename, so a crash mid-write leaves the old file, never half of a new one.
 */

export interface SettingsFileStore extends SettingsStore {
  readonly file: string;
  entries(): SettingsEntry[];
  /** Forgets every setting of one tool in one tenant. */
  clear(scope: SettingsScope): Promise<void>;
  /** Resolves when every write so far has reached the disk. */
  flush(): Promise<void>;
}

interface SettingsFileContent {
  format: 'pipeline-tool-settings';
  version: 1;
  settings: SettingsEntry[];
}

/** Loading found the file unusable; the store starts empty and the bad file is kept aside. */
export interface SettingsFileProblem {
  file: string;
  reason: string;
  /** Where the unusable file was moved, or null if it could not be moved. */
  keptAs: string | null;
}

const slot = (scope: SettingsScope, key: string) => JSON.stringify([scope.tenantId, scope.toolId, key]);

function readEntries(text: string): SettingsEntry[] {
  const value = JSON.parse(text) as unknown;
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { settings?: unknown }).settings)) {
    throw new Error('it is not an object with a "settings" list');
  }
  const entries = (value as { settings: unknown[] }).settings;
  return entries.map((entry, index) => {
    const e = entry as Partial<SettingsEntry> | null;
    if (typeof e !== 'object' || e === null || typeof e.tenantId !== 'string' || typeof e.toolId !== 'string' || typeof e.key !== 'string' || !('value' in e)) {
      throw new Error(`settings[${index}] needs tenantId, toolId, key and value`);
    }
    return { tenantId: e.tenantId, toolId: e.toolId, key: e.key, value: e.value as JsonValue };
  });
}

/**
 * Opens the settings file, creating nothing until the first write. A file that cannot be read as
 * settings is moved aside (settings.json → settings.json.corrupt) and reported, never fatal.
 */
export async function openSettingsFile(file: string): Promise<{ store: SettingsFileStore; problem: SettingsFileProblem | null }> {
  const values = new Map<string, SettingsEntry>();
  let problem: SettingsFileProblem | null = null;
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problem = { file, reason: (error as Error).message, keptAs: null };
    }
  }
  if (text !== undefined) {
    try {
      for (const entry of readEntries(text)) values.set(slot(entry, entry.key), entry);
    } catch (error) {
      const keptAs = `${file}.corrupt`;
      const moved = await rename(file, keptAs).then(
        () => true,
        () => false,
      );
      problem = { file, reason: error instanceof Error ? error.message : String(error), keptAs: moved ? keptAs : null };
    }
  }

  let writing: Promise<void> = Promise.resolve();
  let counter = 0;
  const save = (): Promise<void> => {
    const content: SettingsFileContent = { format: 'pipeline-tool-settings', version: 1, settings: [...values.values()] };
    const text = `${JSON.stringify(content, null, 2)}\n`;
    // Writes are chained so that an older snapshot can never land after a newer one; a failed
    // write is reported to its caller and does not block the ones after it.
    writing = writing.catch(() => {}).then(async () => {
      await mkdir(path.dirname(file), { recursive: true });
      await writeIgnoreFile(path.dirname(file));
      const temporary = `${file}.${process.pid}.${++counter}.tmp`;
      await writeFile(temporary, text, 'utf8');
      await rename(temporary, file);
    });
    return writing;
  };

  const copy = (value: JsonValue): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;
  const store: SettingsFileStore = {
    file,
    read: (scope, key) => {
      const entry = values.get(slot(scope, key));
      return entry === undefined ? undefined : copy(entry.value);
    },
    write: (scope, key, value) => {
      values.set(slot(scope, key), { tenantId: scope.tenantId, toolId: scope.toolId, key, value: copy(value) });
      return save();
    },
    entries: () => [...values.values()].map((entry) => ({ ...entry, value: copy(entry.value) })),
    clear: (scope) => {
      for (const [id, entry] of values) if (entry.tenantId === scope.tenantId && entry.toolId === scope.toolId) values.delete(id);
      return save();
    },
    flush: () => writing.catch(() => {}),
  };
  return { store, problem };
}

/** The folder holds local state only; a .gitignore keeps it out of commits without asking. */
async function writeIgnoreFile(folder: string): Promise<void> {
  await writeFile(path.join(folder, '.gitignore'), '# Written by pipeline-tool dev: local state, not for version control.\n*\n', { flag: 'wx' }).catch(
    () => {},
  );
}
