import type { Report } from '../../core/problem.js';
import { formatGithub } from './github.js';
import type { FormatOptions } from './shared.js';
import { formatJson } from './json.js';
import { formatText } from './text.js';

/** A formatter turns a report into the text to print. Pure: no I/O, colour only when asked. */
export type Formatter = (report: Report, options: FormatOptions) => string;

export const formatters: Readonly<Record<string, Formatter>> = {
  text: formatText,
  json: formatJson,
  github: formatGithub,
};

export { formatNames } from './names.js';

export type { FormatOptions } from './shared.js';
