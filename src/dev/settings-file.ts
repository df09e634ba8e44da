import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { asDiskWriteError } from '../core/disk-errors.js';
import { NotRegularFileError, readRegularFile } from '../core/regular-file.js';
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
 * settings (or is not a regular file at all) is moved aside (settings.json → settings.json.corrupt)
 * and reported, never fatal.
 */
export async function openSettingsFile(file: string, options: { onWriteError?: (message: string) => void } = {}): Promise<{ store: SettingsFileStore; problem: SettingsFileProblem | null }> {
  let values = new Map<string, SettingsEntry>();
  let problem: SettingsFileProblem | null = null;
  const setAside = async (reason: string) => {
    const keptAs = `${file}.corrupt`;
    const moved = await rename(file, keptAs).then(
      () => true,
      () => false,
    );
    problem = { file, reason, keptAs: moved ? keptAs : null };
  };
  let text: string | undefined;
  try {
    text = (await readRegularFile(file)).toString('utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError) await setAside(`it is ${error.kind}, not a regular file`);
    else if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problem = { file, reason: (error as Error).message, keptAs: null };
  }
  if (text !== undefined) {
    try {
      for (const entry of readEntries(text)) values.set(slot(entry, entry.key), entry);
    } catch (error) {
      await setAside(error instanceof Error ? error.message : String(error));
    }
  }

  let writing: Promise<void> = Promise.resolve();
  let counter = 0;
  /**
   * Saves the settings as `change` leaves them, and only once they are on disk makes them the
   * ones read: a write the disk refuses changes neither memory nor the file, and leaves no
   * temporary file behind. Writes are chained, so that an older snapshot can never land after a
   * newer one; a failed write is reported to its caller and does not block the ones after it.
   */
  const commit = (change: (next: Map<string, SettingsEntry>) => void): Promise<void> => {
    const result = writing.catch(() => {}).then(async () => {
      const next = new Map(values);
      change(next);
      const content: SettingsFileContent = { format: 'pipeline-tool-settings', version: 1, settings: [...next.values()] };
      const temporary = `${file}.${process.pid}.${++counter}.tmp`;
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeIgnoreFile(path.dirname(file));
        await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, 'utf8');
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => {});
        const reported = asDiskWriteError(error, file);
        const message = `the settings were not saved and are unchanged: ${reported instanceof Error ? reported.message : String(reported)}`;
        options.onWriteError?.(message);
        throw new Error(message, { cause: error });
      }
      values = next;
    });
    writing = result;
    return result;
  };

  const copy = (value: JsonValue): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;
  const store: SettingsFileStore = {
    file,
    read: (scope, key) => {
      const entry = values.get(slot(scope, key));
      return entry === undefined ? undefined : copy(entry.value);
    },
    write: (scope, key, value) => {
      const entry = { tenantId: scope.tenantId, toolId: scope.toolId, key, value: copy(value) };
      return commit((next) => next.set(slot(scope, key), entry));
    },
    entries: () => [...values.values()].map((entry) => ({ ...entry, value: copy(entry.value) })),
    clear: (scope) =>
      commit((next) => {
        for (const [id, entry] of next) if (entry.tenantId === scope.tenantId && entry.toolId === scope.toolId) next.delete(id);
      }),
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
