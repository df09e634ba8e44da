import { encode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';
import { describe, expect, it } from 'vitest';
import { bytesBySource } from '../../src/core/source-map/source-bytes.js';

/*
 * How the bundle report shares a built file's bytes out among the sources its map names: each
 * mapping covers the text from its column to the next one's on its line, the last one to the end
 * of the line with its line break; text no mapping covers, or covered by a mapping of no source,
 * is nobody's (null).
 */

const URL = 'file:///p/dist/app.js.map';
const A = 'file:///p/dist/a.ts';
const B = 'file:///p/dist/b.ts';

const plainMap = (mappings: SourceMapMappings | string) => ({ version: 3, sources: ['a.ts', 'b.ts'], names: [], mappings: typeof mappings === 'string' ? mappings : encode(mappings) });
const indexedMap = (mappings: SourceMapMappings) => ({ version: 3, sections: [{ offset: { line: 0, column: 0 }, map: plainMap(mappings) }] });

// Line 1: `a` before any mapping, `bc` from a.ts, `d` from a mapping of no source, `ef` from b.ts
// with its CRLF; line 2 has no mapping; line 3 from b.ts, then a.ts from a column past its end.
const TEXT = 'abcdef\r\ng\u00e9i\nxyz';
const MAPPINGS: SourceMapMappings = [
  [
    [1, 0, 0, 0],
    [3],
    [4, 1, 0, 0],
  ],
  [],
  [
    [0, 1, 0, 0],
    [10, 0, 0, 0],
  ],
];
const SHARED = [
  { source: null, bytes: 7, text: 'adg\u00e9i\n' },
  { source: A, bytes: 2, text: 'bc' },
  { source: B, bytes: 7, text: 'ef\r\nxyz' },
];

describe('bytesBySource', () => {
  it('shares each line out from mapping to mapping, counting UTF-8 bytes', async () => {
    expect(await bytesBySource(TEXT, { map: plainMap(MAPPINGS), url: URL })).toEqual(SHARED);
  });

  it('the same through an index map, whose mappings trace-mapping decodes', async () => {
    expect(await bytesBySource(TEXT, { map: indexedMap(MAPPINGS), url: URL })).toEqual(SHARED);
  });

  it('the same when a line\u2019s mappings are out of column order, or the map has fewer lines than the file', async () => {
    const unsorted: SourceMapMappings = [[MAPPINGS[0]![2]!, MAPPINGS[0]![0]!, MAPPINGS[0]![1]!], [], [...MAPPINGS[2]!]];
    expect(await bytesBySource(TEXT, { map: plainMap(unsorted), url: URL })).toEqual(SHARED);
    const short = await bytesBySource('abc\nde\n', { map: plainMap([[[0, 0, 0, 0]]]), url: URL });
    expect(short).toEqual([
      { source: A, bytes: 4, text: 'abc\n' },
      { source: null, bytes: 3, text: 'de\n' },
    ]);
  });

  it('gives nobody a mapping of a source the map does not name, and ends a line at a lone CR', async () => {
    const parts = await bytesBySource('ab\rcd', { map: plainMap([[[0, 0, 0, 0], [1, 7, 0, 0]], [[0, 1, 0, 0]]]), url: URL });
    expect(parts).toEqual([
      { source: A, bytes: 1, text: 'a' },
      { source: null, bytes: 2, text: 'b\r' },
      { source: B, bytes: 2, text: 'cd' },
    ]);
  });

  it('gives a line\u2019s break to the source of its last mapping, even one that starts past the line\u2019s end', async () => {
    // Each line's second mapping (b.ts) starts at column 5, past the end of `ab`.
    const map = plainMap([
      [[0, 0, 0, 0], [5, 1, 0, 0]],
      [[0, 0, 0, 0], [5, 1, 0, 0]],
      [[0, 0, 0, 0], [5, 1, 0, 0]],
      [[0, 0, 0, 0], [5, 1, 0, 0]],
    ]);
    expect(await bytesBySource('ab\r\nab\nab\r\nab', { map, url: URL })).toEqual([
      { source: A, bytes: 8, text: 'abababab' },
      { source: B, bytes: 5, text: '\r\n\n\r\n' },
    ]);
  });

  it('reads mappings the decoder would read otherwise than as written as the decoder does', async () => {
    // `ECA`: a segment of three numbers, which the in-place reader leaves to trace-mapping (it reads `ECAA`).
    expect(await bytesBySource('abc', { map: plainMap('AAAA,ECA'), url: URL })).toEqual([
      { source: A, bytes: 2, text: 'ab' },
      { source: B, bytes: 1, text: 'c' },
    ]);
  });

  it('holds many mappings on a line, to the byte', async () => {
    const text = 'ab'.repeat(3000);
    const line: SourceMapMappings[number] = Array.from({ length: 6000 }, (_, column) => [column, column % 2, 0, 0]);
    const parts = await bytesBySource(text, { map: plainMap([line]), url: URL });
    expect(parts).toEqual([
      { source: A, bytes: 3000, text: 'a'.repeat(3000) },
      { source: B, bytes: 3000, text: 'b'.repeat(3000) },
    ]);
  });
});
