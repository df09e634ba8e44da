import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { loadColour, palette } from '../../src/cli/formatters/palette.js';

describe('the text formatter palette', () => {
  it('without colour, prints exactly what chalk prints at level 0, without loading chalk', () => {
    const chalk = new Chalk({ level: 0 });
    const plain = palette(false);
    for (const text of ['', 'error  ', 'two\nlines', '\u001b[31malready red\u001b[39m', '✖ bundle.zip: 2 problems']) {
      expect(plain.underline(text)).toBe(chalk.underline(text));
      expect(plain.dim(text)).toBe(chalk.dim(text));
      expect(plain.red(text)).toBe(chalk.red(text));
      expect(plain.red.bold(text)).toBe(chalk.red.bold(text));
      expect(plain.yellow(text)).toBe(chalk.yellow(text));
      expect(plain.yellow.bold(text)).toBe(chalk.yellow.bold(text));
      expect(plain.green(text)).toBe(chalk.green(text));
    }
  });

  it('with colour, is chalk at level 1, and only once chalk is loaded', async () => {
    expect(() => palette(true)).toThrow(/before chalk was loaded/);
    await loadColour();
    expect(palette(true).red.bold('x')).toBe(new Chalk({ level: 1 }).red.bold('x'));
  });
});
