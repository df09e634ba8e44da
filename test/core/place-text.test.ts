import { describe, expect, it } from 'vitest';
import { placeText } from '../../src/core/place-text.js';

describe('placeText', () => {
  it.each([
    [['src/App.tsx', 12, 5], 'src/App.tsx:12:5'],
    [['src/App.tsx', 12, undefined], 'src/App.tsx:12'],
    [['src/App.tsx', 12, null], 'src/App.tsx:12'],
    [['src/App.tsx', undefined, undefined], 'src/App.tsx'],
    // A column without its line says nothing on its own.
    [['src/App.tsx', undefined, 5], 'src/App.tsx'],
    [['src/App.tsx', null, 5], 'src/App.tsx'],
    // Line and column 0 are numbers like any other.
    [['a.js', 0, 0], 'a.js:0:0'],
  ] as const)('%j is %s', ([file, line, column], expected) => {
    expect(placeText(file, line, column)).toBe(expected);
  });
});
