import { encode } from '@jridgewell/sourcemap-codec';
import { describe, expect, it } from 'vitest';
import { mappedPlaces, samePlaces } from '../../src/core/source-map/text-map.js';

/*
 * How the lint command turns a place in the script it reads (1-based line, column in characters)
 * back into the author's text (1-based line, column in UTF-16 units, as editors count): the same
 * place for a script kept where it was written, else through the compiler's map.
 */

describe('a script kept where the author wrote it', () => {
  it('is the same line, the column counted in UTF-16 units past a character outside the BMP', () => {
    const place = samePlaces('a = 1;\r\nb = "\u{1F600}"; c();\n');
    expect(place(1, 1)).toEqual({ line: 1, column: 0 });
    expect(place(1, 6)).toEqual({ line: 1, column: 5 });
    expect(place(2, 9)).toEqual({ line: 2, column: 9 });
    expect(place(3, 1)).toEqual({ line: 3, column: 0 });
  });

  it('has no line before the first or after the last', () => {
    const place = samePlaces('a();\nb();');
    expect(place(0, 1)).toBeUndefined();
    expect(place(3, 1)).toBeUndefined();
  });
});

describe('a script a compiler wrote, with its map', () => {
  // The author wrote two lines; the compiler put a line of its own first, then `  x(key);` for the
  // author's `key;` on line 2 (its `x(` added), and `"\u{1F600}"+go()` for the author's `go()` at
  // column 4 of line 1 (the string added).
  const source = 'if (go()) {}\nkey;\n';
  const script = 'import "rt";\n  x(key);\n"\u{1F600}"+go()\n';
  const map = {
    version: 3 as const,
    sources: ['a.tsx'],
    names: [],
    mappings: encode([
      [],
      [[2, 0, 1, 0]],
      [[0], [5, 0, 0, 4]],
    ]),
  };
  const place = mappedPlaces(script, map, source);

  it('places a column where the generated text from the mapped start is the author\u2019s, as far into the source', () => {
    // `go()` starts at UTF-16 offset 5 of line 3 (the emoji takes two units), column 5 in characters.
    expect(place(3, 5)).toEqual({ line: 1, column: 4 });
    expect(place(3, 7)).toEqual({ line: 1, column: 6 });
  });

  it('keeps the mapped start when the text up to the place is not the author\u2019s', () => {
    // `x(key` from the segment at `x`: the author wrote `key`, not `x(`.
    expect(place(2, 5)).toEqual({ line: 2, column: 0 });
  });

  it('keeps the mapped place when it is past the author\u2019s last line', () => {
    const past = mappedPlaces('x;\n', { version: 3, sources: ['a.tsx'], names: [], mappings: encode([[[0, 0, 7, 2]]]) }, source);
    expect(past(1, 2)).toEqual({ line: 8, column: 2 });
  });

  it('places nothing the compiler added: no segment, a segment of no source, no such line', () => {
    expect(place(1, 1)).toBeUndefined();
    expect(place(2, 1)).toBeUndefined();
    expect(place(3, 1)).toBeUndefined();
    expect(place(9, 1)).toBeUndefined();
  });
});
