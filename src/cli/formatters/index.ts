import type { Report } from '../../core/problem.js';
import type { FormatName } from './names.js';
import { loadColour } from './palette.js';
import type { FormatOptions } from './shared.js';

/** A formatter turns a report into the text to print. Pure: no I/O, colour only when asked. */
export type Formatter = (report: Report, options: FormatOptions) => string;

/**
 * The registry. Each formatter is loaded only when picked, so JSON output never loads chalk; and
 * text output loads it only when it may be coloured: `colour: false` promises that every call
 * will pass `colour: false`.
 */
const loaders: Readonly<Record<FormatName, (colour: boolean) => Promise<Formatter>>> = {
  text: async (colour) => {
    const [{ formatText }] = await Promise.all([import('./text.js'), colour ? loadColour() : undefined]);
    return formatText;
  },
  json: async () => (await import('./json.js')).formatJson,
  github: async () => (await import('./github.js')).formatGithub,
  sarif: async () => (await import('./sarif.js')).formatSarif,
};

export function loadFormatter(name: string, { colour = true }: { colour?: boolean } = {}): Promise<Formatter> | undefined {
  return Object.hasOwn(loaders, name) ? loaders[name as FormatName](colour) : undefined;
}

export { formatNames, type FormatName } from './names.js';
export type { FormatOptions } from './shared.js';
