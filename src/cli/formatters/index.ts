import type { Report } from '../../core/problem.js';
import type { FormatName } from './names.js';
import type { FormatOptions } from './shared.js';

/** A formatter turns a report into the text to print. Pure: no I/O, colour only when asked. */
export type Formatter = (report: Report, options: FormatOptions) => string;

/** The registry. Each formatter is loaded only when picked, so JSON output never loads chalk. */
const loaders: Readonly<Record<FormatName, () => Promise<Formatter>>> = {
  text: async () => (await import('./text.js')).formatText,
  json: async () => (await import('./json.js')).formatJson,
  github: async () => (await import('./github.js')).formatGithub,
};

export function loadFormatter(name: string): Promise<Formatter> | undefined {
  return Object.hasOwn(loaders, name) ? loaders[name as FormatName]() : undefined;
}

export { formatNames, type FormatName } from './names.js';
export type { FormatOptions } from './shared.js';
