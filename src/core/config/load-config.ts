import { readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { fileTypeOf, NotRegularFileError, openRegularFile } from '../regular-file.js';
import { CONFIG_FILE, CONFIG_MAX_BYTES, parseProjectConfig, type ProjectConfig } from './project-config.js';

/** A project file found and checked, with the folder its paths are relative to. */
export interface LoadedConfig {
  /** Absolute path of the file. */
  file: string;
  /** Its folder: the project root, against which `source` and `out` resolve. */
  root: string;
  config: ProjectConfig;
}

/**
 * The project file that applies in `cwd`: `explicit` when given (resolved against `cwd`),
 * otherwise the first pipeline-tool.config.json in `cwd` or a folder above it, as eslint and
 * tsconfig are found. Undefined when there is none. `show` turns an absolute path into the form
 * messages use. Throws UsageError (a ConfigError, with line and column) for a file that cannot be used.
 */
export async function loadProjectConfig(cwd: string, explicit?: string, show: (file: string) => string = (f) => f): Promise<LoadedConfig | undefined> {
  const file = explicit === undefined ? await findConfigFile(cwd) : path.resolve(cwd, explicit);
  if (file === undefined) return undefined;
  const text = await readConfigText(file, explicit !== undefined ? explicit : show(file));
  return { file, root: path.dirname(file), config: parseProjectConfig(text, show(file)) };
}

/** The nearest pipeline-tool.config.json from `start` upward, stopping at the first one. */
export async function findConfigFile(start: string): Promise<string | undefined> {
  for (const candidate of candidates(start)) if (await stat(candidate).catch(() => undefined)) return candidate;
  return undefined;
}

/**
 * {@link loadProjectConfig} without waiting: for callers that cannot (an ESLint rule runs
 * synchronously). Found, read and checked the same way, with the same messages.
 */
export function loadProjectConfigSync(cwd: string, show: (file: string) => string = (f) => f): LoadedConfig | undefined {
  let file: string | undefined;
  for (const candidate of candidates(cwd)) {
    if (statSync(candidate, { throwIfNoEntry: false })) {
      file = candidate;
      break;
    }
  }
  if (file === undefined) return undefined;
  let text: string;
  try {
    // Looked at first, as openRegularFile does: reading a named pipe would wait for ever.
    const info = statSync(file);
    const type = fileTypeOf(info);
    if (type !== 'file') throw new NotRegularFileError(file, type);
    text = configText(readFileSync(file), info.size, show(file));
  } catch (error) {
    throw configReadError(error, show(file));
  }
  return { file, root: path.dirname(file), config: parseProjectConfig(text, show(file)) };
}

/** The project file's possible places, from `start` upward. */
function* candidates(start: string): Generator<string> {
  let folder = path.resolve(start);
  for (;;) {
    yield path.join(folder, CONFIG_FILE);
    const parent = path.dirname(folder);
    if (parent === folder) return;
    folder = parent;
  }
}

async function readConfigText(file: string, shown: string): Promise<string> {
  let handle;
  try {
    let info;
    // A named pipe is refused before it is opened: opening it would wait for a writer for ever.
    ({ handle, info } = await openRegularFile(file));
    if (info.size > CONFIG_MAX_BYTES) return configText(Buffer.alloc(0), info.size, shown);
    return configText(await handle.readFile(), info.size, shown);
  } catch (error) {
    throw configReadError(error, shown);
  } finally {
    await handle?.close();
  }
}

/** The text of the project file's bytes: refused when too large or not UTF-8. */
function configText(bytes: Buffer, size: number, shown: string): string {
  if (size > CONFIG_MAX_BYTES) throw new UsageError(`${shown} is ${size} bytes; a project file is a few lines of JSON (at most ${CONFIG_MAX_BYTES} bytes).`);
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, CONFIG_MAX_BYTES + 1));
}

/** What went wrong reading the project file, as a UsageError that says how to fix it. */
function configReadError(error: unknown, shown: string): UsageError {
  if (error instanceof NotRegularFileError) {
    if (error.type === 'directory') return new UsageError(`${shown} is a folder; the project file is a JSON file named ${CONFIG_FILE}.`);
    return new UsageError(`${shown} is ${error.kind}, not a regular file; the project file is a JSON file named ${CONFIG_FILE}.`);
  }
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new UsageError(`${shown} does not exist. Give the path of a ${CONFIG_FILE} file, or leave --config out to find it from the current folder upward.`);
  if (code === 'EISDIR') return new UsageError(`${shown} is a folder; the project file is a JSON file named ${CONFIG_FILE}.`);
  if (error instanceof TypeError) return new UsageError(`${shown} is not valid UTF-8 text; save it as UTF-8 JSON.`);
  return new UsageError(`cannot read ${shown}: ${(error as Error).message}`);
}
