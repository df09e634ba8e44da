import type { ChalkInstance } from 'chalk';

type Paint = (text: string) => string;

/** The styles the text formatter uses. A ChalkInstance is one; so is the plain palette below. */
export interface Palette {
  underline: Paint;
  dim: Paint;
  red: Paint & { bold: Paint };
  yellow: Paint & { bold: Paint };
  green: Paint;
}

const same: Paint = (text) => text;

/** What chalk at level 0 prints: the text unchanged. */
const PLAIN: Palette = {
  underline: same,
  dim: same,
  red: Object.assign((text: string) => text, { bold: same }),
  yellow: Object.assign((text: string) => text, { bold: same }),
  green: same,
};

let colour: ChalkInstance | undefined;

/**
 * Loads chalk. Output without colour (CI logs, pipes, NO_COLOR) does not need it, and chalk probes
 * the terminal as it loads, which `validate` on an ordinary bundle would notice.
 */
export async function loadColour(): Promise<void> {
  colour ??= new (await import('chalk')).Chalk({ level: 1 });
}

/** The palette for one piece of output: chalk's when colour is asked for, plain otherwise. */
export function palette(useColour: boolean): Palette {
  if (!useColour) return PLAIN;
  if (!colour) throw new Error('coloured output was asked for before chalk was loaded: load the formatter with colour');
  return colour;
}
